"""The Automation API host of a Python Pulumi program (examples/python, and the Python programs of
the real-engine tests): it runs inline, as an Automation API program, the very function the
program's __main__.py calls under `if __name__ == "__main__":`, so no Python language host is
needed (the CLI calls the program back). The program is ordinary: with Python's language host,
`pulumi up` runs its __main__.py.

    python runner.py [--stack dev] [--json] up|preview|refresh|destroy

Run it in the program's folder: the project is that folder's Pulumi.yaml (its name is read there);
the stack is created when missing, and its config is the usual Pulumi.<stack>.yaml. The CLI is the
`pulumi` on PATH and reads its backend and passphrase from the environment, as it does for
`pulumi up`. In this repository, `npm run example:python -- up` runs the example this way.

The engine's progress goes to stdout (stderr with --json), then a summary: the result, the
changes by kind, the steps (with the outputs a refresh changed) and, after an up, the stack's
outputs. With --json the summary is one JSON object on stdout.
"""

import argparse
import json
import os
import re
import runpy
import sys
from typing import Any, Callable, Dict, List, Optional, Tuple

from pulumi import automation as auto
from pulumi.automation import events

COMMANDS = ("up", "preview", "refresh", "destroy")


def main() -> int:
    parser = argparse.ArgumentParser(prog="runner.py", description=__doc__.splitlines()[0])
    parser.add_argument("--stack", default="dev", help="the stack")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object (progress on stderr)")
    parser.add_argument("command", choices=COMMANDS)
    args = parser.parse_args()
    progress = sys.stderr if args.json else sys.stdout

    summary: Dict[str, Any] = {"command": args.command, "stack": args.stack, "result": "failed", "changes": {}}
    seen: List[events.EngineEvent] = []
    failure: Optional[Exception] = None
    try:
        work_dir = os.getcwd()
        stack = auto.create_or_select_stack(
            stack_name=args.stack,
            project_name=project_name(os.path.join(work_dir, "Pulumi.yaml")),
            program=hosted_program(work_dir),
            opts=auto.LocalWorkspaceOptions(work_dir=work_dir),
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


def project_name(pulumi_yaml: str) -> str:
    """The project's name in its Pulumi.yaml: the top-level `name:` line."""
    with open(pulumi_yaml, encoding="utf-8") as f:
        found = re.search(r"^name:\s*[\"']?([^\"'\s#]+)", f.read(), re.MULTILINE)
    if not found:
        raise ValueError(f"{pulumi_yaml}: no top-level name")
    return found.group(1)


def hosted_program(work_dir: str) -> Callable[[], None]:
    """The function the program's __main__.py calls under `if __name__ == "__main__":`, loaded
    from the file as a module of another name, so that call does not run here."""
    path = os.path.join(work_dir, "__main__.py")
    with open(path, encoding="utf-8") as f:
        found = re.search(r"^if __name__ == [\"']__main__[\"']:\s*\n\s+(\w+)\(\)\s*$", f.read(), re.MULTILINE)
    if not found:
        raise ValueError(f'{path}: no `if __name__ == "__main__":` calling the program function')
    sys.path.insert(0, work_dir)
    return runpy.run_path(path, run_name="hosted_program")[found.group(1)]


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
