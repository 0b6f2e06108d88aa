package quickstart;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import com.pulumi.core.Output;
import com.pulumi.resources.CustomResourceOptions;
import com.pulumi.resources.CustomTimeouts;
import com.pulumi.vmapi.Machine;
import com.pulumi.vmapi.MachineArgs;
import com.pulumi.vmapi.MachineRestart;
import com.pulumi.vmapi.MachineRestartArgs;
import com.pulumi.vmapi.Script;
import com.pulumi.vmapi.ScriptArgs;
import com.pulumi.vmapi.VmapiFunctions;
import com.pulumi.vmapi.enums.BillingType;
import com.pulumi.vmapi.enums.MachineType;
import com.pulumi.vmapi.enums.Region;
import com.pulumi.vmapi.inputs.GetTemplatesArgs;

/**
 * The quickstart: one machine kept ready on the template getTemplates finds, a startup script
 * created for it, and the machine restarted whenever that script changes, so it runs the new text
 * at once. Its config (all optional): {@code setupScript}, the script's text; {@code
 * createTimeout}, how long the machine's create may take (the engine's customTimeouts, e.g.
 * {@code 20m}): the plugin stops waiting when it runs out.
 */
public class App {
    private static final String SETUP = "#!/bin/bash\napt-get update && apt-get install -y python3-pip\n";

    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        var config = ctx.config();
        var templateId = VmapiFunctions.getTemplates(GetTemplatesArgs.builder().os("Ubuntu 22.04 Server").build())
            .applyValue(found -> {
                if (found.templates().isEmpty()) {
                    throw new IllegalStateException("no Ubuntu 22.04 Server template is visible to this key");
                }
                return found.templates().get(0).id();
            });

        var options = CustomResourceOptions.builder();
        config.get("createTimeout").ifPresent(timeout -> options.customTimeouts(
            CustomTimeouts.builder().create(CustomTimeouts.parseTimeoutString(timeout)).build()));
        var trainer = new Machine("trainer", MachineArgs.builder()
            .region(Region.EastCoastNY2)
            .machineType(MachineType.C4)
            .size(50)
            .billingType(BillingType.Hourly)
            .templateId(templateId)
            .dynamicPublicIp(true)
            .build(), options.build());

        // Created for the machine: an edited text is a new script assigned to the same machine,
        // which keeps its id and disk. A secret: encrypted in the stack's state.
        var setup = new Script("setup", ScriptArgs.builder()
            .scriptText(Output.ofSecret(config.get("setupScript").orElse(SETUP)))
            .description("installs pip at the machine's next boot")
            .runOnce(true)
            .machineId(trainer.machineId())
            .build());

        // Restarts the machine, in place, when the script's id changes: it runs the new text at once.
        new MachineRestart("trainerRestart", MachineRestartArgs.builder()
            .machineId(trainer.machineId())
            .triggers(setup.scriptId().applyValue(id -> java.util.List.<Object>of(id)))
            .build());

        ctx.export("templateId", templateId);
        ctx.export("machineId", trainer.machineId());
        ctx.export("machineState", trainer.currentState());
        ctx.export("publicIp", trainer.publicIpAddress());
        ctx.export("machineName", trainer.name());
        ctx.export("scriptId", setup.scriptId());
        ctx.export("scriptName", setup.name());
    }
}
