// The Automation API host of a Go Pulumi program (examples/go, and the Go programs of the
// real-engine tests): the program's own package main built with this file in place of its
// main.go, by tools/examples/go.sh (`go build -overlay`), so it runs inline the very function
// the program's main.go hands to pulumi.Run, which the build names `hosted` (hosted.go, written by
// go.sh). The program is ordinary: with Go's language host, `pulumi up` runs its main.go; here no
// Go language host can be built, and the Automation API needs none (the CLI calls the program back).
//
//	<program> [--stack dev] [--json] up|preview|refresh|destroy
//
// The project is the Pulumi.yaml of the working folder (its name is read there); the stack is
// created when missing, and its config is the usual Pulumi.<stack>.yaml. The CLI is the `pulumi`
// on PATH and reads its backend and passphrase from the environment, as it does for `pulumi up`.
// In this repository, `npm run example:go -- up` builds the example this way and runs it.
//
// The engine's progress goes to stdout (stderr with --json), then a summary: the result, the
// changes by kind, the steps (with the outputs a refresh or an update changed) and, after an up,
// the stack's outputs. With --json the summary is one JSON object on stdout.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
)

// commands are the operations this program runs (the CLI runs any other command on the project).
var commands = map[string]bool{"up": true, "preview": true, "refresh": true, "destroy": true}

// Summary is what one command did.
type Summary struct {
	Command string         `json:"command"`
	Stack   string         `json:"stack"`
	Result  string         `json:"result"`
	Changes map[string]int `json:"changes"`
	Steps   []Step         `json:"steps"`
	// Outputs of the stack after an up; secret values are shown as "[secret]".
	Outputs map[string]any `json:"outputs,omitempty"`
	// Errors: the engine's error messages, then the failure as the Automation API reports it.
	Errors []string `json:"errors,omitempty"`
}

// Step is one resource's step, as the engine reported it.
type Step struct {
	Op   string `json:"op"`
	Type string `json:"type"`
	Name string `json:"name"`
	// Changed lists the outputs whose values the step changed (a refresh's findings, an update's).
	Changed []string `json:"changed,omitempty"`
	Failed  bool     `json:"failed,omitempty"`
}

func main() {
	flags := flag.NewFlagSet(filepath.Base(os.Args[0]), flag.ExitOnError)
	stackName := flags.String("stack", "dev", "the stack")
	asJSON := flags.Bool("json", false, "print the summary as one JSON object (progress on stderr)")
	_ = flags.Parse(os.Args[1:])
	if flags.NArg() != 1 || !commands[flags.Arg(0)] {
		fmt.Fprintf(os.Stderr, "usage: %s [--stack NAME] [--json] up|preview|refresh|destroy\n", flags.Name())
		os.Exit(2)
	}
	progress := io.Writer(os.Stdout)
	if *asJSON {
		progress = os.Stderr
	}
	summary, err := run(context.Background(), flags.Arg(0), *stackName, progress)
	if err != nil {
		summary.Result = "failed"
		summary.Errors = append(summary.Errors, err.Error())
	}
	if *asJSON {
		_ = json.NewEncoder(os.Stdout).Encode(summary)
	} else {
		printSummary(summary)
	}
	if err != nil {
		os.Exit(1)
	}
}

// run runs `command` on the stack of this folder's project, its progress on `progress`.
func run(ctx context.Context, command, stackName string, progress io.Writer) (Summary, error) {
	summary := Summary{Command: command, Stack: stackName, Result: "failed", Changes: map[string]int{}}
	workDir, err := os.Getwd()
	if err != nil {
		return summary, err
	}
	project, err := projectName(filepath.Join(workDir, "Pulumi.yaml"))
	if err != nil {
		return summary, err
	}
	stack, err := auto.UpsertStackInlineSource(ctx, stackName, project, hosted, auto.WorkDir(workDir))
	if err != nil {
		return summary, err
	}

	engineEvents := make(chan events.EngineEvent)
	var seen []apitype.EngineEvent
	var mu sync.Mutex
	streamEnded := make(chan struct{})
	go func() {
		for e := range engineEvents {
			if e.Error == nil {
				mu.Lock()
				seen = append(seen, e.EngineEvent)
				mu.Unlock()
			}
		}
		close(streamEnded)
	}()
	changes, err := operate(ctx, stack, command, progress, engineEvents)
	// The Automation API ends the stream when the CLI does; a CLI that fails before it streams
	// anything (a locked stack, say) leaves it open, so the wait for its end is bounded.
	select {
	case <-streamEnded:
	case <-time.After(5 * time.Second):
	}
	mu.Lock()
	summary.Steps, summary.Errors = stepsOf(seen, command == "refresh")
	mu.Unlock()
	if err != nil {
		return summary, err
	}
	summary.Result, summary.Changes = "succeeded", changes
	if command == "up" {
		outputs, err := stack.Outputs(ctx)
		if err != nil {
			return summary, err
		}
		summary.Outputs = shown(outputs)
	}
	return summary, nil
}

// nameLine is the project's name in a Pulumi.yaml: a top-level `name:` line.
var nameLine = regexp.MustCompile(`(?m)^name:\s*["']?([^"'\s#]+)`)

// projectName reads the project's name from its Pulumi.yaml (the namespace of the program's own
// config keys, and the project the inline program must run as).
func projectName(file string) (string, error) {
	text, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	found := nameLine.FindSubmatch(text)
	if found == nil {
		return "", fmt.Errorf("%s: no top-level name", file)
	}
	return string(found[1]), nil
}

// operate runs one Automation API operation; its events go to `engineEvents`, closed at the end.
func operate(
	ctx context.Context, stack auto.Stack, command string, progress io.Writer, engineEvents chan events.EngineEvent,
) (map[string]int, error) {
	switch command {
	case "up":
		result, err := stack.Up(ctx, optup.ProgressStreams(progress), optup.EventStreams(engineEvents))
		return counts(result.Summary.ResourceChanges), err
	case "preview":
		result, err := stack.Preview(ctx, optpreview.ProgressStreams(progress), optpreview.EventStreams(engineEvents))
		changes := map[string]int{}
		for op, n := range result.ChangeSummary {
			changes[string(op)] = n
		}
		return changes, err
	case "refresh":
		result, err := stack.Refresh(ctx, optrefresh.ProgressStreams(progress), optrefresh.EventStreams(engineEvents))
		return counts(result.Summary.ResourceChanges), err
	case "destroy":
		result, err := stack.Destroy(ctx, optdestroy.ProgressStreams(progress), optdestroy.EventStreams(engineEvents))
		return counts(result.Summary.ResourceChanges), err
	}
	close(engineEvents)
	return nil, fmt.Errorf("unknown command %q", command)
}

func counts(changes *map[string]int) map[string]int {
	if changes == nil {
		return map[string]int{}
	}
	return *changes
}

// stepsOf reads the engine's events: the steps on resources (finished ones; a preview's planned
// ones) and the error messages it showed. A step's changes are the properties the engine's diff
// names, or for a refresh, which diffs nothing, the outputs whose values it found changed.
func stepsOf(all []apitype.EngineEvent, refresh bool) ([]Step, []string) {
	var done, planned []Step
	var errors []string
	for _, e := range all {
		switch {
		case e.ResOutputsEvent != nil:
			done = append(done, stepOf(e.ResOutputsEvent.Metadata, false, refresh))
		case e.ResOpFailedEvent != nil:
			done = append(done, stepOf(e.ResOpFailedEvent.Metadata, true, refresh))
		case e.ResourcePreEvent != nil:
			planned = append(planned, stepOf(e.ResourcePreEvent.Metadata, false, refresh))
		case e.DiagnosticEvent != nil && e.DiagnosticEvent.Severity == "error":
			errors = append(errors, strings.TrimSpace(e.DiagnosticEvent.Message))
		}
	}
	if len(done) == 0 {
		done = planned
	}
	steps := []Step{}
	for _, s := range done {
		if s.Type != "pulumi:pulumi:Stack" && !strings.HasPrefix(s.Type, "pulumi:providers:") {
			steps = append(steps, s)
		}
	}
	return steps, errors
}

func stepOf(m apitype.StepEventMetadata, failed, refresh bool) Step {
	step := Step{Op: string(m.Op), Type: m.Type, Name: m.URN[strings.LastIndex(m.URN, "::")+2:], Failed: failed}
	if !refresh || m.Old == nil || m.New == nil {
		step.Changed = m.Diffs
		return step
	}
	for key := range union(m.Old.Outputs, m.New.Outputs) {
		if !reflect.DeepEqual(m.Old.Outputs[key], m.New.Outputs[key]) {
			step.Changed = append(step.Changed, key)
		}
	}
	sort.Strings(step.Changed)
	return step
}

func union(a, b map[string]any) map[string]bool {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	return keys
}

func shown(outputs auto.OutputMap) map[string]any {
	values := map[string]any{}
	for key, output := range outputs {
		values[key] = output.Value
		if output.Secret {
			values[key] = "[secret]"
		}
	}
	return values
}

func printSummary(s Summary) {
	kinds := make([]string, 0, len(s.Changes))
	for kind, n := range s.Changes {
		kinds = append(kinds, fmt.Sprintf("%s %d", kind, n))
	}
	sort.Strings(kinds)
	fmt.Printf("\n%s %s: %s (%s)\n", s.Command, s.Stack, s.Result, strings.Join(kinds, ", "))
	for _, step := range s.Steps {
		line := fmt.Sprintf("  %s %s (%s)", step.Op, step.Name, step.Type)
		if len(step.Changed) > 0 {
			line += " changed: " + strings.Join(step.Changed, ", ")
		}
		if step.Failed {
			line += " FAILED"
		}
		fmt.Println(line)
	}
	keys := make([]string, 0, len(s.Outputs))
	for key := range s.Outputs {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		fmt.Printf("  %s: %v\n", key, s.Outputs[key])
	}
	for _, e := range s.Errors {
		fmt.Fprintln(os.Stderr, "error:", e)
	}
}
