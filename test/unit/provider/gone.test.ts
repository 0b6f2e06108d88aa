/**
 * Deciding that a resource is gone (shared/gone.ts): only a 404 status for the resource proves it,
 * and every refusal is a typed error that keeps the answer it refused as `cause`.
 */
import type { VmApiClient } from "../../../src/client/client";
import { NotFoundError, ServerError } from "../../../src/client/core/errors";
import { AbsenceNotProvenError, StillPresentError } from "../../../src/provider/shared/errors";
import { confirmAbsent, pollUntilGone, requireOwnerInAccount } from "../../../src/provider/shared/gone";

const absent = new NotFoundError("machine not found", { status: 404, basis: "status" });
const aboutSomethingElse = new NotFoundError("network not found", { status: 400, basis: "message" });

describe("gone", () => {
  it("confirmAbsent: the read answers 404 → resolves", async () => {
    await expect(
      confirmAbsent(() => Promise.reject(absent), "machine ps1", aboutSomethingElse),
    ).resolves.toBeUndefined();
  });

  it("confirmAbsent: the read finds it → StillPresentError with the claim as cause", async () => {
    const refusal = confirmAbsent(
      () => Promise.resolve({ state: "ready" }),
      "machine ps1",
      aboutSomethingElse,
    );
    await expect(refusal).rejects.toBeInstanceOf(StillPresentError);
    await expect(refusal).rejects.toMatchObject({
      message: expect.stringContaining("machine ps1 still exists (state ready)"),
      cause: aboutSomethingElse,
    });
  });

  it("confirmAbsent: the read fails otherwise → that failure as it is", async () => {
    const down = new ServerError("unavailable", { status: 503 });
    await expect(confirmAbsent(() => Promise.reject(down), "machine ps1", aboutSomethingElse)).rejects.toBe(
      down,
    );
  });

  it("pollUntilGone: still shown when the time is up → StillPresentError naming the last state", async () => {
    let now = 0;
    const sleep = async (ms: number) => {
      now += ms;
    };
    const polling = pollUntilGone(() => Promise.resolve({ state: "stopping" }), 1000, {
      sleep,
      now: () => now,
    });
    await expect(polling).rejects.toBeInstanceOf(StillPresentError);
    await expect(polling).rejects.toThrow("still present after 1 s (last state: stopping)");
  });

  it("requireOwnerInAccount: the owner is not a user of the key's account → AbsenceNotProvenError with the 404 as cause", async () => {
    const client = { users: { list: () => Promise.resolve([{ id: "u1" }]) } } as unknown as VmApiClient;
    const refusal = requireOwnerInAccount("ps1", { userId: "u9" }, client, absent);
    await expect(refusal).rejects.toBeInstanceOf(AbsenceNotProvenError);
    await expect(refusal).rejects.toMatchObject({ cause: absent });
    await expect(requireOwnerInAccount("ps1", { userId: "u1" }, client, absent)).resolves.toBeUndefined();
  });
});
