/**
 * Resource classes under the SDK's mocks, as a program sees them: the engine's state echoes the
 * inputs (plus `state`, what the provider would add), and an Output's value is read back.
 */
import * as pulumi from "@pulumi/pulumi";

/** Before the file's tests: mocks whose new resources hold their inputs and `state`. */
export function useEchoMocks(state: Record<string, unknown> = {}): void {
  beforeAll(async () => {
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => ({ id: `${args.name}-id`, state: { ...args.inputs, ...state } }),
        call: () => ({}),
      },
      "project",
      "stack",
      false,
    );
  });
}

/** The value an Output resolves to. */
export function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}
