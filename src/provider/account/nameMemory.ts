/**
 * The names `check` saw in the state during one plugin process, by resource: what the `check`
 * without olds of a replacement starts from (naming.ts). One per process, in its context
 * (context.ts).
 */

/**
 * The old name of each resource that a `check` with olds saw in this plugin process (one
 * `preview` or `up`), by the resource's identity: what the `check` without olds of its
 * replacement starts from.
 */
export class NameMemory {
  private readonly names = new Map<string, StateName>();

  /** Records the name the resource of `identity` has in the state. */
  remember(identity: string, name: StateName): void {
    this.names.set(identity, name);
  }

  /** The name the resource of `identity` has in the state, when a check with olds saw it. */
  nameOf(identity: string): StateName | undefined {
    return this.names.get(identity);
  }
}

/** A name in the state, and whether it is an auto-name (else it was declared, maybe secret). */
export interface StateName {
  readonly name: string;
  readonly auto: boolean;
}
