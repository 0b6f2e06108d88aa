/**
 * Machines: thin endpoint methods over `HttpClient`, plus the two that need more than one request:
 * `create` (never two machines for one call) and `waitFor`.
 */
import type { z } from "zod";
import type { DedicatedGpuMachineType, Region, WaitableState } from "../../../contract/constants";
import { DEFAULT_MACHINE_PAGE_SIZE } from "../../../contract/constants";
import { DEFAULT_CREATE_TIMEOUT_MS } from "../../core/settings";
import { provesAbsence } from "../../core/errors";
import type { HttpClient, RequestOptions } from "../../core/http";
import { notify } from "../../core/notify";
import { collect, Paginator } from "../../core/pagination";
import { filtersToQuery } from "../../core/filterQuery";
import { MACHINE_FILTER_FIELDS, type MachineFilters } from "../../../contract/listFilters";
import type { Operation } from "../../../contract/operation";
import { OPERATIONS } from "../../../contract/operations";
import {
  PagingQuerySchema,
  type CreateMachineRequest,
  type CreateMachineRequestSchema,
  type SetMachineAccessRequest,
  type UpdateMachineRequest,
} from "../../../contract/requestSchemas";
import type { LookupContext, Timing } from "../../core/retry";
import { createWaiting } from "../../core/createWindow";
import { lookForLateCreate } from "./lateCreates";
import type { Availability, Machine, Utilization } from "../../../contract/schemas";
import { pathWithId, requireId, validateInput } from "../../core/validate";
import { waitForState, type WaitOptions } from "./waiting";

/** Options of `machines.create`. */
export interface CreateMachineOptions extends RequestOptions {
  /**
   * The caller guarantees no other machine has this name (e.g. it ends in a random suffix), so
   * the list of namesakes taken before the first attempt is skipped: one request less. After an
   * ambiguous failure, any machine with this name and spec is then taken for the one created.
   */
  uniqueName?: boolean;
  /**
   * The ids of the machines named `name` now, in place of the client's own list of namesakes (one
   * request per create): e.g. one listing shared by creates that start together. It must be
   * taken after this call began, so that every namesake existing then is among them.
   */
  namesakes?: (name: string) => Promise<ReadonlySet<string>>;
  /**
   * Told, in a sentence, what the create does while its answer is late or lost: still waiting,
   * looking for the machine a lost attempt made, taking it, or finding none.
   */
  onProgress?: (message: string) => void;
  /** How those sentences name the machine: its `machineName` unless given. */
  label?: string;
}

/** Paging of `machines.list`. */
export interface ListMachinesOptions extends RequestOptions {
  /** Page size, 1–1000 (server default 1000). */
  limit?: number;
  /** Items to skip; multiples of `limit` give pages. */
  skip?: number;
}

/** Options of `machines.destroy`. */
export interface DestroyMachineOptions extends RequestOptions {
  /** Release any assigned public IP (default false). */
  releasePublicIp?: boolean;
}

/** Bound on the namesakes a create snapshots; far above any sane account. */
const MAX_NAMESAKES = 100_000;

const ops = OPERATIONS;

/** The machine endpoints of the API. */
export class Machines {
  constructor(
    private readonly http: HttpClient,
    private readonly timing: Timing,
    /** See `ClientSettingsInput.createTimeoutMs`. */
    private readonly createTimeoutMs: number = DEFAULT_CREATE_TIMEOUT_MS,
  ) {}

  /**
   * Creates a machine (state `provisioning`). One call never creates two machines: the answer is
   * waited for up to `createTimeoutMs`; after a failure where the server may have acted, the
   * client looks for a machine with this name and spec that was not there before the first
   * attempt, for as long as that attempt may still take effect, and returns it if found. Only
   * when there is none, and none can come any more, is the request sent again.
   */
  async create(request: CreateMachineRequest, options: CreateMachineOptions = {}): Promise<Machine> {
    const body = validateInput(ops.createMachine.body.schema, request, "create machine");
    const namesakesBefore = options.uniqueName
      ? new Set<string>()
      : await (options.namesakes?.(body.machineName) ?? this.idsNamed(body.machineName, options));
    const say = (message: string) => notify(options.onProgress, message);
    const what = `machine ${options.label ?? body.machineName}`;
    return this.http.post(ops.createMachine.path, body, {
      schema: ops.createMachine.answer.schema,
      idempotent: false,
      signal: options.signal,
      ...createWaiting(what, this.createTimeoutMs, say),
      lookup: (context) => this.findLate(body, namesakesBefore, context, { ...options, onProgress: say }),
    });
  }

  /** One machine with its events. */
  async get(machineId: string, options?: RequestOptions): Promise<Machine> {
    const { path, answer } = ops.getMachinePublic;
    return this.http.get(path, { machineId: requireId(machineId, "machineId") }, answer.schema, options);
  }

  /** One page of machines matching the equality `filters` (null matches an unset field). */
  async list(filters: MachineFilters = {}, options: ListMachinesOptions = {}): Promise<Machine[]> {
    const { limit, skip, signal, onSent } = options;
    const paging = validateInput(PagingQuerySchema, { limit, skip }, "list machines");
    const query = filtersToQuery(filters, MACHINE_FILTER_FIELDS);
    if (paging.limit !== undefined) query.limit = String(paging.limit);
    if (paging.skip !== undefined) query.skip = String(paging.skip);
    return this.http.get(ops.getMachines.path, query, ops.getMachines.answer.schema, { signal, onSent });
  }

  /** Every machine matching `filters`, fetched page by page as the iteration proceeds. */
  listAll(
    filters: MachineFilters = {},
    options: RequestOptions & { pageSize?: number } = {},
  ): Paginator<Machine> {
    const pageSize = options.pageSize ?? DEFAULT_MACHINE_PAGE_SIZE;
    validateInput(PagingQuerySchema, { limit: pageSize }, "list machines");
    filtersToQuery(filters, MACHINE_FILTER_FIELDS); // refuse bad filters now, not at the first page
    const fetchPage = (page: { limit: number; skip: number }) =>
      this.list(filters, { ...page, signal: options.signal, onSent: options.onSent });
    return new Paginator(fetchPage, pageSize, (machine) => machine.id);
  }

  /** Starts a machine; a no-op when it already runs, so a repeat after a lost answer is harmless. */
  async start(machineId: string, options?: RequestOptions): Promise<void> {
    return this.action(ops.startMachine, machineId, true, options);
  }

  /** Stops a machine; a no-op when it is already off. */
  async stop(machineId: string, options?: RequestOptions): Promise<void> {
    return this.action(ops.stopMachine, machineId, true, options);
  }

  /** Restarts a machine. Not repeated after an ambiguous failure: a repeat restarts it twice. */
  async restart(machineId: string, options?: RequestOptions): Promise<void> {
    return this.action(ops.restartMachine, machineId, false, options);
  }

  /** Updates the given fields. */
  async update(
    machineId: string,
    request: UpdateMachineRequest,
    options: RequestOptions = {},
  ): Promise<void> {
    const body = validateInput(ops.updateMachine.body.schema, request, "update machine");
    const path = pathWithId(ops.updateMachine, "machineId", machineId);
    return this.http.post(path, body, { idempotent: true, signal: options.signal });
  }

  /**
   * Destroys a machine. When an attempt whose answer was lost is followed by a 404 status, the
   * first attempt did the work, and the call succeeds; a "not found" message under a 400 proves
   * nothing about this machine and is thrown.
   */
  async destroy(machineId: string, options: DestroyMachineOptions = {}): Promise<void> {
    const { releasePublicIp, signal } = options;
    const body = validateInput(ops.destroyMachine.body.schema, { releasePublicIp }, "destroy machine");
    return this.http.post(
      pathWithId(ops.destroyMachine, "machineId", machineId),
      releasePublicIp === undefined ? undefined : body,
      {
        idempotent: true,
        signal,
        afterAmbiguous: async (error) => (provesAbsence(error) ? { value: undefined } : undefined),
      },
    );
  }

  /** Grants (`enableAccess: true`) or revokes a user's access to a machine. */
  async setAccess(
    machineId: string,
    request: SetMachineAccessRequest,
    options: RequestOptions = {},
  ): Promise<void> {
    const body = validateInput(ops.setMachineAccess.body.schema, request, "set machine access");
    const path = pathWithId(ops.setMachineAccess, "machineId", machineId);
    return this.http.post(
      path,
      { userId: body.userId, enableAccess: body.enableAccess },
      { idempotent: true, ...options },
    );
  }

  /** Usage and rates of a machine in `billingMonth` (YYYY-MM). */
  async utilization(machineId: string, billingMonth: string, options?: RequestOptions): Promise<Utilization> {
    const { path, query: schema, answer } = ops.getUtilization;
    const query = validateInput(schema, { machineId, billingMonth }, "utilization");
    return this.http.get(path, query, answer.schema, options);
  }

  /** Whether a dedicated GPU type can currently be requested in a region. */
  async availability(
    region: Region,
    machineType: DedicatedGpuMachineType,
    options?: RequestOptions,
  ): Promise<Availability> {
    const { path, query: schema, answer } = ops.getAvailability;
    const query = validateInput(schema, { region, machineType }, "availability");
    return this.http.get(path, query, answer.schema, options);
  }

  /**
   * Polls until the machine is in `state` (`ready` also satisfies `serviceready`) and returns it
   * with its events. See `waitForState` for the failures.
   */
  async waitFor(machineId: string, state: WaitableState, options: WaitOptions = {}): Promise<Machine> {
    requireId(machineId, "machineId");
    return waitForState((signal) => this.get(machineId, { signal }), machineId, state, options, this.timing);
  }

  private action(
    operation: Operation,
    machineId: string,
    idempotent: boolean,
    options: RequestOptions = {},
  ): Promise<void> {
    return this.http.post(pathWithId(operation, "machineId", machineId), undefined, {
      idempotent,
      signal: options.signal,
    });
  }

  private async idsNamed(name: string, options: RequestOptions): Promise<Set<string>> {
    const machines = await collect(this.listAll({ name }, options), { max: MAX_NAMESAKES });
    return new Set(machines.map((machine) => machine.id));
  }

  /**
   * After an ambiguous failure of a create: the machine it made (see `lookForLateCreate`), or
   * undefined when none can come any more and the create may be sent again.
   */
  private findLate(
    body: CreateMachineBody,
    before: ReadonlySet<string>,
    context: LookupContext,
    options: RequestOptions & { onProgress: (message: string) => void; label?: string },
  ): Promise<Machine | undefined> {
    return lookForLateCreate({
      ...context,
      kind: "machine",
      name: options.label ?? body.machineName,
      find: () => this.findCreated(body, before, options),
      timing: this.timing,
      createTimeoutMs: this.createTimeoutMs,
      say: options.onProgress,
      signal: options.signal,
    });
  }

  /**
   * Machines that a create of `body` made, oldest first: its name and spec, and not among the
   * namesakes listed before the first attempt (so made after it was sent). A namesake that was
   * there before, or that differs from what was sent, is never taken.
   */
  private async findCreated(
    body: CreateMachineBody,
    before: ReadonlySet<string>,
    options: RequestOptions,
  ): Promise<Machine[]> {
    const now = await collect(this.listAll({ name: body.machineName }, options), { max: MAX_NAMESAKES });
    const created = now.filter((machine) => !before.has(machine.id) && sameSpec(machine, body));
    return created.sort((a, b) => a.dtCreated.localeCompare(b.dtCreated));
  }
}

type CreateMachineBody = z.output<typeof CreateMachineRequestSchema>;

/** Pure: whether a listed machine is what `body` asked for, as far as the machine shows it. */
function sameSpec(machine: Machine, body: CreateMachineBody): boolean {
  return (
    machine.region === body.region &&
    machine.machineType === body.machineType &&
    (body.scriptId === undefined || machine.scriptId === body.scriptId) &&
    (body.networkId === undefined || machine.networkId === body.networkId)
  );
}
