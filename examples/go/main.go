// The Go quickstart, an ordinary Pulumi Go program: `pulumi up` in this folder runs it with Go's
// language host. The program itself is quickstart.go.
package main

import "github.com/pulumi/pulumi/sdk/v3/go/pulumi"

func main() {
	pulumi.Run(quickstart)
}
