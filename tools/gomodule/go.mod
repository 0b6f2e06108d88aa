// Writes a Go module version into a module proxy folder (main.go), for the test that `go get`s the
// Go SDK at its version without a replace (test/e2e/goModule.test.ts).
module github.com/pulumi-vmapi/pulumi-vmapi/tools/gomodule

go 1.26.6

require golang.org/x/mod v0.42.0
