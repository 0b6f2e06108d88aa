/**
 * Secrets in the stack state files of `npm run stack`: every secret value (the Pulumi wire form
 * `{"<sig>": "<secret sig>", "value": …}`) is written as `{"<sig>": "<secret sig>",
 * "ciphertext": "v1:…"}` (AES-256-GCM), as Pulumi's own passphrase provider does, and decrypted
 * when read. The key comes from VMAPI_STATE_PASSPHRASE, else from a random key file created
 * next to the states (`state.key`, mode 0600), so a state file alone never holds a secret.
 */
import * as crypto from "crypto";
import * as fs from "fs";
import * as path from "path";
import { SECRET_SIG, SIG_KEY } from "./engine/programRunnerWire";

const VERSION = "v1";
/** Salt of the passphrase derivation: fixed, since the passphrase, not the salt, is the secret. */
const SALT = "pulumi-vmapi stack state";

/** The 32-byte key for the states under `workdir`. */
export function stateKey(workdir: string, passphrase = process.env.VMAPI_STATE_PASSPHRASE): Buffer {
  if (passphrase) return crypto.scryptSync(passphrase, SALT, 32);
  const file = path.join(workdir, "state.key");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(workdir, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
  }
  return Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
}

/** A copy of `value` with every secret's plaintext replaced by its ciphertext. */
export function encryptSecrets(value: unknown, key: Buffer): unknown {
  return mapSecrets(value, (secret) => {
    if (!("value" in secret)) return secret;
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(secret.value), "utf8"), cipher.final()]);
    const parts = [VERSION, iv, cipher.getAuthTag(), data].map((p) =>
      typeof p === "string" ? p : p.toString("base64"),
    );
    return { [SIG_KEY]: SECRET_SIG, ciphertext: parts.join(":") };
  });
}

/** A copy of `value` with every secret's ciphertext decrypted; a wrong key is a clear error. */
export function decryptSecrets(value: unknown, key: Buffer): unknown {
  return mapSecrets(value, (secret) => {
    if (typeof secret.ciphertext !== "string") return secret;
    const [version, iv, tag, data] = secret.ciphertext.split(":");
    if (version !== VERSION) throw new Error(`stack state: unknown secret format ${JSON.stringify(version)}`);
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    let plain: string;
    try {
      plain = Buffer.concat([decipher.update(Buffer.from(data, "base64")), decipher.final()]).toString(
        "utf8",
      );
    } catch {
      throw new Error("stack state: cannot decrypt its secrets (wrong VMAPI_STATE_PASSPHRASE or state.key)");
    }
    return { [SIG_KEY]: SECRET_SIG, value: JSON.parse(plain) as unknown };
  });
}

type SecretWire = Record<string, unknown>;

function mapSecrets(value: unknown, fn: (secret: SecretWire) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => mapSecrets(v, fn));
  if (value === null || typeof value !== "object") return value;
  const obj = value as SecretWire;
  if (obj[SIG_KEY] === SECRET_SIG) return fn(obj);
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, mapSecrets(v, fn)]));
}
