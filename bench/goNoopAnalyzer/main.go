// The no-op analyzer of bench/policyPack.ts: answers every Analyzer call at once with nothing, the
// floor of any policy pack's cost on the engine (the pack of src/policy is timed beside it).
package main

import (
	"context"
	"fmt"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

type noop struct {
	pulumirpc.UnimplementedAnalyzerServer
}

func (noop) Analyze(context.Context, *pulumirpc.AnalyzeRequest) (*pulumirpc.AnalyzeResponse, error) {
	return &pulumirpc.AnalyzeResponse{}, nil
}
func (noop) AnalyzeStack(context.Context, *pulumirpc.AnalyzeStackRequest) (*pulumirpc.AnalyzeResponse, error) {
	return &pulumirpc.AnalyzeResponse{}, nil
}
func (noop) Remediate(context.Context, *pulumirpc.AnalyzeRequest) (*pulumirpc.RemediateResponse, error) {
	return &pulumirpc.RemediateResponse{}, nil
}
func (noop) GetAnalyzerInfo(context.Context, *emptypb.Empty) (*pulumirpc.AnalyzerInfo, error) {
	return &pulumirpc.AnalyzerInfo{Name: "noop", Version: "0.0.1", SupportsConfig: true}, nil
}
func (noop) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: "0.0.1"}, nil
}
func (noop) Configure(context.Context, *pulumirpc.ConfigureAnalyzerRequest) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

func main() {
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterAnalyzerServer(srv, noop{})
			return nil
		},
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d\n", handle.Port)
	<-handle.Done
}
