import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { decryptSecrets, encryptSecrets, stateKey } from "../../../tools/stateCrypto";
import { SECRET_SIG, SIG_KEY } from "../../../tools/engine/programRunnerWire";

const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });
const state = {
  resources: [
    {
      urn: "u",
      inputs: { password: secret("hunter2-pw"), name: "box" },
      outputs: { token: secret({ t: "tok-123" }) },
    },
  ],
  outputs: { list: [secret("in-a-list")] },
};

describe("stack state secrets", () => {
  it("encryptSecrets: every secret value → ciphertext; plain values untouched; decrypt → the same state", () => {
    const key = stateKey("/unused", "a passphrase");
    const stored = JSON.stringify(encryptSecrets(state, key));
    for (const plain of ["hunter2-pw", "tok-123", "in-a-list"]) expect(stored).not.toContain(plain);
    expect(stored).toContain('"name":"box"');
    expect(decryptSecrets(JSON.parse(stored), key)).toEqual(state);
  });

  it("decryptSecrets: another passphrase → a clear error naming what to check", () => {
    const stored = encryptSecrets(state, stateKey("/unused", "right"));
    expect(() => decryptSecrets(stored, stateKey("/unused", "wrong"))).toThrow(/VMAPI_STATE_PASSPHRASE/);
  });

  it("stateKey: no passphrase → a random key file (0600) created once and reused", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-key-"));
    try {
      const first = stateKey(dir, "");
      expect(stateKey(dir, "")).toEqual(first);
      expect(fs.statSync(path.join(dir, "state.key")).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
