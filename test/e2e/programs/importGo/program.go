package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	"github.com/pulumi-vmapi/pulumi-vmapi/sdk/go/vmapi"
)

// program takes in the machine the config's `machineId` names, declared with the inputs
// `pulumi import` prints for it (the config's `machineName`, `region`, `machineType`, `size`,
// `billingType`; no template, which only a create needs).
func program(ctx *pulumi.Context) error {
	conf := config.New(ctx, "")
	machine, err := vmapi.NewMachine(ctx, "imported", &vmapi.MachineArgs{
		Name:        pulumi.String(conf.Require("machineName")),
		Region:      vmapi.Region(conf.Require("region")),
		MachineType: vmapi.MachineType(conf.Require("machineType")),
		Size:        pulumi.Int(conf.RequireInt("size")),
		BillingType: vmapi.BillingType(conf.Require("billingType")),
	}, pulumi.Import(pulumi.ID(conf.Require("machineId"))))
	if err != nil {
		return err
	}
	ctx.Export("machineId", machine.MachineId)
	ctx.Export("size", machine.Size)
	return nil
}
