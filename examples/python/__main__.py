"""The Python quickstart, an ordinary Pulumi Python program (`pulumi up` in this folder runs it
with Python's language host): one machine kept ready, and a startup script created for it."""

import pulumi

import pulumi_vmapi as vmapi


def quickstart() -> None:
    ubuntu = vmapi.get_templates(os="Ubuntu 22.04 Server")
    if not ubuntu.templates:
        raise Exception("no Ubuntu 22.04 Server template is visible to this key")
    template_id = ubuntu.templates[0].id

    # Optional: how long the machine's create may take, as the engine's customTimeouts
    # (`pulumi config set createTimeout 20m`); the plugin stops waiting when it runs out.
    timeout = pulumi.Config().get("createTimeout")
    trainer = vmapi.Machine(
        "trainer",
        region=vmapi.Region.EAST_COAST_NY2,
        machine_type=vmapi.MachineType.C4,
        size=50,
        billing_type=vmapi.BillingType.HOURLY,
        template_id=template_id,
        dynamic_public_ip=True,
        shutdown_timeout_in_hours=2,
        opts=pulumi.ResourceOptions(custom_timeouts=pulumi.CustomTimeouts(create=timeout)) if timeout else None,
    )

    # Created for the machine (`machine_id`): an edited text is a new script assigned to the same
    # machine, which keeps its id and its disk and runs the new text at its next boot.
    setup = vmapi.Script(
        "setup",
        # A secret: encrypted in the stack's state, never shown in plain text.
        script_text=pulumi.Output.secret("#!/bin/bash\napt-get update && apt-get install -y python3-pip\n"),
        description="installs pip at the machine's next boot",
        run_once=True,
        machine_id=trainer.machine_id,
    )

    pulumi.export("templateId", template_id)
    pulumi.export("machineId", trainer.machine_id)
    pulumi.export("machineState", trainer.current_state)
    pulumi.export("publicIp", trainer.public_ip_address)
    pulumi.export("machineName", trainer.name)
    pulumi.export("scriptId", setup.script_id)
    pulumi.export("scriptName", setup.name)


if __name__ == "__main__":
    quickstart()
