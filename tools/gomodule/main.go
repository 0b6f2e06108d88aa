// Command gomodule writes one version of a Go module into a module proxy folder, as a Go module
// proxy serves it (https://go.dev/ref/mod#goproxy-protocol), so `GOPROXY=file://<folder>` serves
// it to `go get`:
//
//	gomodule --dir sdk/go/vmapi --module github.com/pulumi-vmapi/pulumi-vmapi/sdk/go/vmapi \
//	  --version v0.1.0 --time 2026-11-27T00:00:00Z --out <folder>
//
// writes <folder>/<module, escaped>/@v/ list, v0.1.0.info, v0.1.0.mod and v0.1.0.zip. The zip is
// made by golang.org/x/mod/zip, the code the go command itself checks module zips with, so its
// layout, its file-name rules and its size limits are the go command's own.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

func main() {
	flags := flag.NewFlagSet("gomodule", flag.ExitOnError)
	dir := flags.String("dir", "", "the module's folder (holding its go.mod)")
	path := flags.String("module", "", "the module's path")
	version := flags.String("version", "", "the version to write, e.g. v0.1.0")
	stamp := flags.String("time", "", "the version's time (RFC 3339); default now")
	out := flags.String("out", "", "the proxy folder")
	_ = flags.Parse(os.Args[1:])
	if *dir == "" || *path == "" || *version == "" || *out == "" || flags.NArg() != 0 {
		flags.Usage()
		os.Exit(2)
	}
	if err := write(*dir, module.Version{Path: *path, Version: *version}, *stamp, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gomodule:", err)
		os.Exit(1)
	}
}

// write makes the version's four files under out.
func write(dir string, version module.Version, stamp, out string) error {
	if err := module.Check(version.Path, version.Version); err != nil {
		return err
	}
	when := time.Now().UTC()
	if stamp != "" {
		parsed, err := time.Parse(time.RFC3339, stamp)
		if err != nil {
			return fmt.Errorf("--time: %w", err)
		}
		when = parsed.UTC()
	}
	escaped, err := module.EscapePath(version.Path)
	if err != nil {
		return err
	}
	at := filepath.Join(out, escaped, "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	zipFile, err := os.Create(filepath.Join(at, version.Version+".zip"))
	if err != nil {
		return err
	}
	if err := modzip.CreateFromDir(zipFile, version, dir); err != nil {
		zipFile.Close()
		return err
	}
	if err := zipFile.Close(); err != nil {
		return err
	}
	goMod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version.Version, when})
	if err != nil {
		return err
	}
	files := map[string][]byte{
		version.Version + ".mod":  goMod,
		version.Version + ".info": info,
		"list":                    []byte(version.Version + "\n"),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(at, name), content, 0o644); err != nil {
			return err
		}
	}
	return nil
}
