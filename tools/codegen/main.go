// Command codegen writes a Pulumi SDK for a package schema:
//
//	codegen --schema schema.json --language go|python --out DIR
//
// It calls the generators of github.com/pulumi/pulumi/pkg/v3 directly, because the CLI's
// `pulumi package gen-sdk` needs a language host for each language, and the Python one is not
// served by the Go module proxy. Files are written under DIR; files already there that the
// generator no longer produces are left alone, so regenerate into a fresh or cleaned folder.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool is the name the generators write into the "do not edit" headers of the files.
const tool = "pulumi-vmapi codegen"

// noDependencies is the schema loader: the binder and the Python generator call one for every
// package the schema refers to, and a nil loader panics. Our schema refers to no other package,
// so any call is an error in the schema, not a missing feature.
type noDependencies struct{}

var errNoDependencies = errors.New("this generator supports schemas without package dependencies")

func (noDependencies) LoadPackage(string, *semver.Version) (*schema.Package, error) {
	return nil, errNoDependencies
}

func (noDependencies) LoadPackageV2(context.Context, *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, errNoDependencies
}

func (noDependencies) LoadPackageReference(string, *semver.Version) (schema.PackageReference, error) {
	return nil, errNoDependencies
}

func (noDependencies) LoadPackageReferenceV2(
	context.Context, *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, errNoDependencies
}

func main() {
	// A flag set of our own: pkg/v3 imports glog, which adds its flags to the default set.
	flags := flag.NewFlagSet("codegen", flag.ExitOnError)
	schemaPath := flags.String("schema", "", "path of the package schema (JSON)")
	language := flags.String("language", "", "go or python")
	out := flags.String("out", "", "folder to write the SDK into")
	_ = flags.Parse(os.Args[1:])
	if *schemaPath == "" || *out == "" || flags.NArg() != 0 {
		flags.Usage()
		os.Exit(2)
	}
	if err := run(*schemaPath, *language, *out); err != nil {
		fmt.Fprintln(os.Stderr, "codegen:", err)
		os.Exit(1)
	}
}

func run(schemaPath, language, out string) error {
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	loader := noDependencies{}
	// BindSpec validates the schema against the metaschema too, so a malformed schema fails here
	// with a pointer to the field rather than as odd generated code.
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	for _, d := range diags {
		fmt.Fprintln(os.Stderr, d.Error())
	}
	if diags.HasErrors() {
		return fmt.Errorf("%s: invalid schema", schemaPath)
	}

	var files map[string][]byte
	switch language {
	case "go":
		files, err = gogen.GeneratePackage(tool, pkg, nil)
	case "python":
		files, err = pygen.GeneratePackage(tool, pkg, nil, loader)
	default:
		return fmt.Errorf("--language must be go or python, not %q", language)
	}
	if err != nil {
		return err
	}

	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "wrote %d files of the %s SDK under %s\n", len(names), language, out)
	return nil
}
