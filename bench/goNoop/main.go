// The floor of the plugin route in bench/engine.ts: a native provider that does nothing, written the
// way Pulumi's own providers are (github.com/pulumi/pulumi-go-provider's infer), serving a Machine
// of the same type token and properties as pulumi-resource-vmapi (plugin/schema.json): the same
// inputs and outputs by name, the provider's same settings. Its create answers from the inputs, its
// read gives back the state it is given, its diff is the framework's; nothing is sent anywhere.
// build.sh builds it into the cache as `pulumi-resource-vmapi`, which a YAML program names under
// `plugins: providers`.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"time"

	"github.com/pulumi/pulumi-go-provider/infer"
)

// Version is the version the plugin reports: the schema's, so that a program needs nothing else.
const Version = "0.1.0"

func main() {
	provider, err := infer.NewProviderBuilder().
		WithResources(infer.Resource(Machine{})).
		WithConfig(infer.Config(&Config{})).
		Build()
	if err == nil {
		err = provider.Run(context.Background(), "vmapi", Version)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// Config is the provider's settings, as pulumi-resource-vmapi's; read and never used.
type Config struct {
	APIKey    *string `pulumi:"apiKey,optional" provider:"secret"`
	BaseURL   *string `pulumi:"baseUrl,optional"`
	PollScale *string `pulumi:"pollScale,optional"`
	// NoopShape "machine": answer as the plugin answers (see the top of this file).
	NoopShape *string `pulumi:"noopShape,optional"`
}

// machineShaped tells whether the provider is set to answer as the plugin answers.
func machineShaped(ctx context.Context) bool {
	shape := infer.GetConfig[Config](ctx).NoopShape
	return shape != nil && *shape == "machine"
}

func str(s string) *string   { return &s }
func num(n float64) *float64 { return &n }
func boolean(b bool) *bool   { return &b }

// Machine is vmapi:index:Machine.
type Machine struct{}

// MachineArgs is a Machine's inputs.
type MachineArgs struct {
	AdoptMachineID             *string  `pulumi:"adoptMachineId,optional"`
	AssignPublicIP             *bool    `pulumi:"assignPublicIp,optional"`
	AutoSnapshotFrequency      *string  `pulumi:"autoSnapshotFrequency,optional"`
	AutoSnapshotSaveCount      *float64 `pulumi:"autoSnapshotSaveCount,optional"`
	BillingType                string   `pulumi:"billingType"`
	DynamicPublicIP            *bool    `pulumi:"dynamicPublicIp,optional"`
	Email                      *string  `pulumi:"email,optional"`
	FirstName                  *string  `pulumi:"firstName,optional"`
	LastName                   *string  `pulumi:"lastName,optional"`
	MachineType                string   `pulumi:"machineType"`
	MarkSnapshotAsRestorePoint *bool    `pulumi:"markSnapshotAsRestorePoint,optional"`
	Name                       *string  `pulumi:"name,optional"`
	NetworkID                  *string  `pulumi:"networkId,optional"`
	NotificationEmail          *string  `pulumi:"notificationEmail,optional"`
	Password                   *string  `pulumi:"password,optional" provider:"secret"`
	PerformAutoSnapshot        *bool    `pulumi:"performAutoSnapshot,optional"`
	Region                     string   `pulumi:"region"`
	ReleasePublicIPOnDestroy   *bool    `pulumi:"releasePublicIpOnDestroy,optional"`
	RestorePointFrequency      *string  `pulumi:"restorePointFrequency,optional"`
	ScriptID                   *string  `pulumi:"scriptId,optional"`
	ShutdownTimeoutForces      *bool    `pulumi:"shutdownTimeoutForces,optional"`
	ShutdownTimeoutInHours     *float64 `pulumi:"shutdownTimeoutInHours,optional"`
	Size                       float64  `pulumi:"size"`
	State                      *string  `pulumi:"state,optional"`
	TakeInitialSnapshot        *bool    `pulumi:"takeInitialSnapshot,optional"`
	TeamID                     *string  `pulumi:"teamId,optional"`
	TemplateID                 string   `pulumi:"templateId"`
	UserID                     *string  `pulumi:"userId,optional"`
	WaitTimeoutSeconds         *float64 `pulumi:"waitTimeoutSeconds,optional"`
}

// MachineEvent is one event of a machine's lifecycle, as the outputs carry them.
type MachineEvent struct {
	DtCreated  *string `pulumi:"dtCreated,optional"`
	DtFinished *string `pulumi:"dtFinished,optional"`
	DtModified *string `pulumi:"dtModified,optional"`
	ErrorMsg   *string `pulumi:"errorMsg,optional"`
	Handle     *string `pulumi:"handle,optional"`
	Name       *string `pulumi:"name,optional"`
	State      *string `pulumi:"state,optional"`
}

// MachineState is a Machine's outputs.
type MachineState struct {
	AgentType              *string        `pulumi:"agentType,optional"`
	AutoSnapshotFrequency  *string        `pulumi:"autoSnapshotFrequency,optional"`
	AutoSnapshotSaveCount  *float64       `pulumi:"autoSnapshotSaveCount,optional"`
	BillingType            string         `pulumi:"billingType"`
	Cpus                   *float64       `pulumi:"cpus,optional"`
	CurrentState           string         `pulumi:"currentState"`
	DtCreated              *string        `pulumi:"dtCreated,optional"`
	DtLastRun              *string        `pulumi:"dtLastRun,optional"`
	DynamicPublicIP        *bool          `pulumi:"dynamicPublicIp,optional"`
	Events                 []MachineEvent `pulumi:"events,optional"`
	Gpu                    *string        `pulumi:"gpu,optional"`
	MachineID              string         `pulumi:"machineId"`
	MachineType            string         `pulumi:"machineType"`
	Name                   string         `pulumi:"name"`
	NetworkID              *string        `pulumi:"networkId,optional"`
	Os                     *string        `pulumi:"os,optional"`
	PasswordDigest         *string        `pulumi:"passwordDigest,optional" provider:"secret"`
	PerformAutoSnapshot    *bool          `pulumi:"performAutoSnapshot,optional"`
	PrivateIPAddress       *string        `pulumi:"privateIpAddress,optional"`
	PublicIPAddress        *string        `pulumi:"publicIpAddress,optional"`
	RAM                    *string        `pulumi:"ram,optional"`
	Region                 string         `pulumi:"region"`
	RestorePointFrequency  *string        `pulumi:"restorePointFrequency,optional"`
	RestorePointSnapshotID *string        `pulumi:"restorePointSnapshotId,optional"`
	ScriptID               *string        `pulumi:"scriptId,optional"`
	ShutdownTimeoutForces  *bool          `pulumi:"shutdownTimeoutForces,optional"`
	ShutdownTimeoutInHours *float64       `pulumi:"shutdownTimeoutInHours,optional"`
	Size                   float64        `pulumi:"size"`
	State                  string         `pulumi:"state"`
	StorageTotal           *string        `pulumi:"storageTotal,optional"`
	StorageUsed            *string        `pulumi:"storageUsed,optional"`
	TeamID                 *string        `pulumi:"teamId,optional"`
	TemplateID             string         `pulumi:"templateId"`
	UpdatesPending         *bool          `pulumi:"updatesPending,optional"`
	UsageRate              *string        `pulumi:"usageRate,optional"`
	UserID                 *string        `pulumi:"userId,optional"`
}

// Create answers from the inputs: the machine is named as declared or after its resource, and ready.
func (Machine) Create(
	ctx context.Context, req infer.CreateRequest[MachineArgs],
) (infer.CreateResponse[MachineState], error) {
	in := req.Inputs
	name := req.Name
	if in.Name != nil {
		name = *in.Name
	}
	state := "ready"
	if in.State != nil {
		state = *in.State
	}
	if machineShaped(ctx) {
		// What the emulator gives a ready C4 of tubsrv01 in East Coast (NY2), as the plugin answers it.
		return infer.CreateResponse[MachineState]{
			ID: "noop-" + req.Name,
			Output: MachineState{
				AgentType:              str("LinuxHeadless"),
				BillingType:            in.BillingType,
				Cpus:                   num(2),
				CurrentState:           state,
				DtCreated:              str(time.Now().UTC().Format("2006-01-02T15:04:05.000Z")),
				DynamicPublicIP:        boolean(false),
				Events:                 []MachineEvent{},
				MachineID:              "noop-" + req.Name,
				MachineType:            in.MachineType,
				Name:                   name,
				NetworkID:              str("nindny2"),
				Os:                     str("Ubuntu 22.04 Server"),
				PerformAutoSnapshot:    boolean(false),
				PrivateIPAddress:       str("10.64.2.10"),
				RAM:                    str("4294967296"),
				Region:                 in.Region,
				ShutdownTimeoutForces:  boolean(false),
				ShutdownTimeoutInHours: num(1),
				Size:                   in.Size,
				State:                  state,
				StorageTotal:           str("53687091200"),
				StorageUsed:            str("12884901888"),
				TemplateID:             in.TemplateID,
				UpdatesPending:         boolean(false),
				UsageRate:              str(in.MachineType + " " + in.BillingType),
				UserID:                 str("ujane001"),
			},
		}, nil
	}
	return infer.CreateResponse[MachineState]{
		ID: "noop-" + req.Name,
		Output: MachineState{
			AutoSnapshotFrequency:  in.AutoSnapshotFrequency,
			AutoSnapshotSaveCount:  in.AutoSnapshotSaveCount,
			BillingType:            in.BillingType,
			CurrentState:           state,
			DynamicPublicIP:        in.DynamicPublicIP,
			Events:                 []MachineEvent{},
			MachineID:              "noop-" + req.Name,
			MachineType:            in.MachineType,
			Name:                   name,
			NetworkID:              in.NetworkID,
			PerformAutoSnapshot:    in.PerformAutoSnapshot,
			Region:                 in.Region,
			RestorePointFrequency:  in.RestorePointFrequency,
			ScriptID:               in.ScriptID,
			ShutdownTimeoutForces:  in.ShutdownTimeoutForces,
			ShutdownTimeoutInHours: in.ShutdownTimeoutInHours,
			Size:                   in.Size,
			State:                  state,
			TeamID:                 in.TeamID,
			TemplateID:             in.TemplateID,
			UserID:                 in.UserID,
		},
	}, nil
}

// Read gives back the state it is given: a refresh finds nothing changed.
func (Machine) Read(
	_ context.Context, req infer.ReadRequest[MachineArgs, MachineState],
) (infer.ReadResponse[MachineArgs, MachineState], error) {
	return infer.ReadResponse[MachineArgs, MachineState]{ID: req.ID, Inputs: req.Inputs, State: req.State}, nil
}

// Check is the framework's, and with noopShape "machine" names a machine declared without a name
// after its resource (a suffix of 7 from a digest of the name, as the plugin's auto-naming has
// one) and defaults its state to ready, as the plugin's check does.
func (Machine) Check(ctx context.Context, req infer.CheckRequest) (infer.CheckResponse[MachineArgs], error) {
	args, failures, err := infer.DefaultCheck[MachineArgs](ctx, req.NewInputs)
	if err != nil || len(failures) > 0 || !machineShaped(ctx) {
		return infer.CheckResponse[MachineArgs]{Inputs: args, Failures: failures}, err
	}
	if args.Name == nil {
		sum := sha256.Sum256([]byte(req.Name))
		args.Name = str(req.Name + "-" + hex.EncodeToString(sum[:])[:7])
	}
	if args.State == nil {
		args.State = str("ready")
	}
	return infer.CheckResponse[MachineArgs]{Inputs: args}, nil
}
