"""A Python program that takes in an existing machine with the `import` resource option; the tests
run it on the SDK's wheel installed in a fresh venv (test/e2e/pythonPackage.test.ts)."""

import pulumi

import pulumi_vmapi as vmapi


def program() -> None:
    """Takes in the machine the config's `machineId` names, declared with the inputs `pulumi
    import` prints for it (no template, which only a create needs)."""
    conf = pulumi.Config()
    machine = vmapi.Machine(
        "imported",
        name=conf.require("machineName"),
        region=vmapi.Region(conf.require("region")),
        machine_type=vmapi.MachineType(conf.require("machineType")),
        size=conf.require_int("size"),
        billing_type=vmapi.BillingType(conf.require("billingType")),
        opts=pulumi.ResourceOptions(import_=conf.require("machineId")),
    )
    pulumi.export("machineId", machine.machine_id)
    pulumi.export("size", machine.size)


if __name__ == "__main__":
    program()
