"""Runs the quickstart (quickstart.py) on the pulumi CLI with Pulumi's Automation API, as an
inline program: the program runs in this process and the CLI calls it back, so no Python language
host is needed.

    python main.py [--stack dev] [--json] up|preview|refresh|destroy

The project is this folder's Pulumi.yaml, which names the plugin's folder; the stack is created
when missing, and its config is the usual Pulumi.<stack>.yaml (vmapi:baseUrl, vmapi:apiKey as a
secret, optional vmapi-python-quickstart:createTimeout). The CLI is the `pulumi` on PATH and reads
its backend and passphrase from the environment, as it does for `pulumi up`. In this repository,
`npm run example:python -- up` installs the SDK and runs this file that way.

The engine's progress goes to stdout (stderr with --json), then a summary: the result, the
changes by kind, the steps (with the outputs a refresh changed) and, after an up, the stack's
outputs. With --json the summary is one JSON object on stdout.
"""

import argparse
import json
import os
import sys
from typing import Any, Callable, Dict, List, Optional, Tuple

from pulumi import automation as auto
from pulumi.automation import events

from quickstart import quickstart

# The name in Pulumi.yaml (the namespace of the program's own config keys).
PROJECT = "vmapi-python-quickstart"
COMMANDS = ("up", "preview", "refresh", "destroy")


def main() -> int:
    parser = argparse.ArgumentParser(prog="main.py", description=__doc__.splitlines()[0])
    parser.add_argument("--stack", default="dev", help="the stack")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object (progress on stderr)")
    parser.add_argument("command", choices=COMMANDS)
    args = parser.parse_args()
    progress = sys.stderr if args.json else sys.stdout

    summary: Dict[str, Any] = {"command": args.command, "stack": args.stack, "result": "failed", "changes": {}}
    seen: List[events.EngineEvent] = []
    failure: Optional[Exception] = None
    try:
        stack = auto.create_or_select_stack(
            stack_name=args.stack,
            project_name=PROJECT,
            program=quickstart,
            opts=auto.LocalWorkspaceOptions(work_dir=os.path.dirname(os.path.abspath(__file__))),
        )
        summary["changes"] = operate(stack, args.command, lambda line: print(line, file=progress), seen.append)
        summary["result"] = "succeeded"
        if args.command == "up":
            summary["outputs"] = {
                key: "[secret]" if output.secret else output.value for key, output in stack.outputs().items()
            }
    except Exception as err:  # noqa: BLE001 - reported below, then the exit code says it failed
        failure = err
    summary["steps"], errors = steps_of(seen, args.command == "refresh")
    if failure is not None:
        summary["errors"] = errors + [str(failure)]

    if args.json:
        print(json.dumps(summary))
    else:
        print_summary(summary)
    return 0 if failure is None else 1


def operate(
    stack: auto.Stack, command: str, on_output: Callable[[str], None], on_event: Callable[[events.EngineEvent], None]
) -> Dict[str, int]:
    """Runs one Automation API operation; returns the changes by kind."""
    if command == "up":
        return dict(stack.up(on_output=on_output, on_event=on_event).summary.resource_changes or {})
    if command == "preview":
        return dict(stack.preview(on_output=on_output, on_event=on_event).change_summary or {})
    if command == "refresh":
        return dict(stack.refresh(on_output=on_output, on_event=on_event).summary.resource_changes or {})
    return dict(stack.destroy(on_output=on_output, on_event=on_event).summary.resource_changes or {})


def steps_of(seen: List[events.EngineEvent], refresh: bool) -> Tuple[List[Dict[str, Any]], List[str]]:
    """The steps on resources (finished ones; a preview's planned ones) and the engine's error
    messages. A step's changes are the properties the engine's diff names, or for a refresh, which
    diffs nothing, the outputs whose values it found changed."""
    done: List[Dict[str, Any]] = []
    planned: List[Dict[str, Any]] = []
    errors: List[str] = []
    for event in seen:
        if event.res_outputs_event:
            done.append(step_of(event.res_outputs_event.metadata, False, refresh))
        elif event.res_op_failed_event:
            done.append(step_of(event.res_op_failed_event.metadata, True, refresh))
        elif event.resource_pre_event:
            planned.append(step_of(event.resource_pre_event.metadata, False, refresh))
        elif event.diagnostic_event and event.diagnostic_event.severity == "error":
            errors.append(event.diagnostic_event.message.strip())
    steps = [
        s
        for s in (done or planned)
        if s["type"] != "pulumi:pulumi:Stack" and not s["type"].startswith("pulumi:providers:")
    ]
    return steps, errors


def step_of(metadata: events.StepEventMetadata, failed: bool, refresh: bool) -> Dict[str, Any]:
    step: Dict[str, Any] = {"op": metadata.op.value, "type": metadata.type, "name": metadata.urn.split("::")[-1]}
    if refresh and metadata.old is not None and metadata.new is not None:
        old, new = metadata.old.outputs or {}, metadata.new.outputs or {}
        changed = sorted(key for key in set(old) | set(new) if old.get(key) != new.get(key))
    else:
        changed = list(metadata.diffs or [])
    if changed:
        step["changed"] = changed
    if failed:
        step["failed"] = True
    return step


def print_summary(summary: Dict[str, Any]) -> None:
    changes = ", ".join(f"{kind} {n}" for kind, n in sorted(summary["changes"].items()))
    print(f"\n{summary['command']} {summary['stack']}: {summary['result']} ({changes})")
    for step in summary["steps"]:
        line = f"  {step['op']} {step['name']} ({step['type']})"
        if step.get("changed"):
            line += " changed: " + ", ".join(step["changed"])
        if step.get("failed"):
            line += " FAILED"
        print(line)
    for key, value in sorted(summary.get("outputs", {}).items()):
        print(f"  {key}: {value}")
    for error in summary.get("errors", []):
        print(f"error: {error}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
