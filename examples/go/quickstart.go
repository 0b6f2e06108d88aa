package main

import (
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	"github.com/pulumi-vmapi/pulumi-vmapi/sdk/go/vmapi"
)

// quickstart is the program: one machine kept ready, and a startup script created for it
// (main.go runs it with pulumi.Run).
func quickstart(ctx *pulumi.Context) error {
	ubuntu, err := vmapi.GetTemplates(ctx, &vmapi.GetTemplatesArgs{Os: pulumi.StringRef("Ubuntu 22.04 Server")})
	if err != nil {
		return err
	}
	if len(ubuntu.Templates) == 0 {
		return fmt.Errorf("no Ubuntu 22.04 Server template is visible to this key")
	}
	templateID := ubuntu.Templates[0].Id

	// Optional: how long the machine's create may take, as the engine's customTimeouts
	// (`pulumi config set createTimeout 20m`); the plugin stops waiting when it runs out.
	var options []pulumi.ResourceOption
	if timeout := config.Get(ctx, "createTimeout"); timeout != "" {
		options = append(options, pulumi.Timeouts(&pulumi.CustomTimeouts{Create: timeout}))
	}
	trainer, err := vmapi.NewMachine(ctx, "trainer", &vmapi.MachineArgs{
		Region:                 vmapi.RegionEastCoastNY2,
		MachineType:            vmapi.MachineTypeC4,
		Size:                   pulumi.Int(50),
		BillingType:            vmapi.BillingTypeHourly,
		TemplateId:             pulumi.String(templateID),
		DynamicPublicIp:        pulumi.Bool(true),
		ShutdownTimeoutInHours: pulumi.Int(2),
	}, options...)
	if err != nil {
		return err
	}

	// Created for the machine (`machineId`): an edited text is a new script assigned to the same
	// machine, which keeps its id and its disk and runs the new text at its next boot.
	setup, err := vmapi.NewScript(ctx, "setup", &vmapi.ScriptArgs{
		// A secret: encrypted in the stack's state, never shown in plain text.
		ScriptText:  pulumi.ToSecret(pulumi.String("#!/bin/bash\napt-get update && apt-get install -y python3-pip\n")).(pulumi.StringOutput),
		Description: pulumi.String("installs pip at the machine's next boot"),
		RunOnce:     pulumi.Bool(true),
		MachineId:   trainer.MachineId,
	})
	if err != nil {
		return err
	}

	ctx.Export("templateId", pulumi.String(templateID))
	ctx.Export("machineId", trainer.MachineId)
	ctx.Export("machineState", trainer.CurrentState)
	ctx.Export("publicIp", trainer.PublicIpAddress)
	ctx.Export("machineName", trainer.Name)
	ctx.Export("scriptId", setup.ScriptId)
	ctx.Export("scriptName", setup.Name)
	return nil
}
