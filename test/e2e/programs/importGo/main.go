// A Go program that takes in an existing machine with the `import` resource option; the tests
// build it in a fresh module that `go get`s the SDK's module version (test/e2e/goModule.test.ts).
package main

import "github.com/pulumi/pulumi/sdk/v3/go/pulumi"

func main() {
	pulumi.Run(program)
}
