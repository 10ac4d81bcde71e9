// The one runner: what every command needs before and after its own work, done once for all of them —
// the named target laid under the command line, the review page and notification set up, Ctrl-C as an
// orderly stop, the terminal, the state store opened once and closed, and the outcome handed to the
// entry point (./main.ts), which alone prints --json and picks the exit code.
import type { LoadedConfig } from '../config/load.js';
import type { ChosenTarget } from '../config/target.js';
import type { Kind } from '../contract/kinds.js';
import type { RunFacts } from '../report/result.js';
import { EXIT, Interrupted, isUploadError, type UploadError } from '../errors.js';
import { confirmQuestion } from '../render/human.js';
import { outputFiles } from '../render/output-files.js';
import { renderEvent } from '../render/render.js';
import type { StateStore } from '../state/types.js';
import { afterRun, prepareAfterRun, type AfterRun } from './after-run.js';
import { scopeFixes } from './fix-scope.js';
import type { Args, CommandContext, CommandSpec } from './command.js';
import type { Flags } from './flags.js';
import type { RunIo } from './io.js';
import type { CommandResult } from './result.js';
import { withTarget, type CommandLine, type TargetedFlags } from './targets.js';
import { leaveNow } from './leave.js';
import { terminalUi } from './terminal.js';

export async function runCommand(name: string, spec: CommandSpec, args: Args, given: Flags, io: RunIo, line: CommandLine): Promise<CommandResult> {
  const json = given.json === true;
  const detailedExitcode = given.detailedExitcode === true;
  let kind: Kind | undefined;
  const blank = (): RunFacts => spec.facts?.(args, given) ?? { kind: kind ?? null, source: null, dryRun: given.dryRun === true };
  const has = (flag: string) => (spec.flags as readonly string[]).includes(flag);

  // The settings the run uses (the target's under the command line's), and what to do once the outcome is final.
  let flags: TargetedFlags;
  let target: ChosenTarget | undefined;
  let config: LoadedConfig | undefined;
  let after: AfterRun | undefined;
  let notice: string | undefined;
  // The policy gate's store, before the run (closed once read), and the run's stores.
  const early = new Map<string, Promise<StateStore>>();
  const stores = new Map<string, Promise<StateStore>>();
  let policyNotices: readonly string[] = [];
  let storeDown: UploadError | undefined;
  // Choosing the target and reading the policy gate's store (a PostgreSQL server that never answers)
  // stop at once on a signal too, with exit 130; a server command handles its own signals.
  const settingUp = spec.ownsTerminal ? { dispose: () => {} } : stopAtOnce();
  try {
    kind = spec.kind?.(args, given);
    let chosen = await withTarget(given, io, line, kind, {
      showOnly: spec.readOnly === true,
      address: spec.address?.(args),
      noTarget: !has('target'),
    });
    ({ target, notice, config } = chosen);
    // A config file's URLs (a target's state store) may carry a password too.
    io.secrets.keepPasswordsIn(Object.values(chosen.settings).map((setting) => setting.value));
    flags = { ...chosen.flags, targetName: target?.name, fourEyes: chosen.fourEyes, settings: chosen.settings };
    const writes = has('target') ? spec.writes?.(flags) : undefined;
    // The policy the store records for the address, config file or not (./policy-gate.ts).
    if (has('target') && spec.writes) {
      const { readStorePolicy, ruleOf } = await import('./policy-gate.js');
      // A connection of its own, closed at once: the run's store is opened with its Ctrl-C signal, later.
      // A store that cannot be read fails the run closed, but as the run's own failure: after the page
      // and the notification are set up, so a night whose store is down is still heard about.
      const gate = await readStorePolicy(
        chosen,
        (which) => openOnce(early, which, io.env),
        writes !== undefined || given.planOut !== undefined,
        spec.address?.(args),
      ).catch((err: unknown) => {
        if (!isUploadError(err) || !err.code.startsWith('STATE_')) throw err;
        storeDown = err;
        return undefined;
      });
      await closeAll(early);
      if (gate) {
        policyNotices = gate.notices;
        const fromStore = gate.recorded !== undefined && !gate.config?.approvals && (gate.effective?.approvals ?? 0) > 0;
        chosen = { ...chosen, fourEyes: ruleOf(gate.effective), ...(fromStore ? { policyFrom: gate.store.label } : {}) };
        flags = { ...flags, fourEyes: chosen.fourEyes };
        if (writes && !target && gate.effective?.protected) (await import('./policy-gate.js')).checkNamedAddress(gate, chosen.settings);
        if (gate.effective?.limits) {
          const floored = await (await import('./policy-gate.js')).withFloors(gate, chosen.settings, line.given);
          chosen = { ...chosen, settings: floored.settings };
          flags = { ...flags, ...floored.flags, settings: floored.settings };
        }
      }
    }
    if (writes) (await import('./four-eyes.js')).checkWrite(writes, chosen, io, given, line);
    if (has('notify') && spec.showsSettings !== true) after = await prepareAfterRun(name, flags, io, target, line.argv);
  } catch (failure) {
    settingUp.dispose();
    await closeAll(early);
    return { facts: blank(), failure, json };
  }
  settingUp.dispose();
  if (spec.ownsTerminal) {
    try {
      return { ...(await spec.run(context(args, flags, target, config, io, line, undefined, (l) => io.stderr.write(`${io.secrets.redact(l)}\n`)))), json };
    } catch (failure) {
      return { failure, json };
    }
  }

  // A protected target, or one the run's address made it, is confirmed by typing its name.
  const protectedName = target && (target.target.protected === true || target.how === 'address') ? target.name : undefined;
  const baseUrl = (flags.settings.baseUrl.value as string | null) ?? null;
  // A command that sends ends in order on Ctrl-C; one that only reads or writes a file just stops.
  const interrupt = spec.interruptible ? onInterrupt() : stopAtOnce();
  const ui = await terminalUi({
    color: flags.noColor !== true,
    quiet: flags.quiet === true || json,
    stderr: io.stderr,
    // Not opened unless asked for (see processIo).
    get stdin() {
      return io.stdin;
    },
    env: io.env,
    signal: interrupt.signal,
    redact: io.secrets.redact,
  });
  if (notice) ui.notice(notice);
  for (const line_ of policyNotices) ui.notice(line_);
  const ctx = context(args, flags, target, config, io, line, { ui, signal: interrupt.signal, protectedName, review: after?.html?.review, stores }, (l) =>
    ui.notice(l),
  );
  const notify = after ? ended(after, baseUrl, ui, io) : undefined;
  // The signal handlers stay until the post-run point: a SIGTERM after the outcome is decided (the
  // report written) must not end the process with a signal's exit code that contradicts the report's.
  // A signal now ends a notification's post (a webhook that never answers), not the outcome.
  const ending: CommandResult['afterRun'] = async (end) => {
    const stop = new AbortController();
    const abort = () => stop.abort();
    for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, abort);
    try {
      await notify?.(end, stop.signal);
    } finally {
      for (const s of ['SIGINT', 'SIGTERM'] as const) process.off(s, abort);
      interrupt.dispose();
    }
  };
  try {
    if (storeDown) throw storeDown;
    const outcome = await spec.run(ctx);
    scopeFixes(outcome.failure, line.argv);
    return { facts: outcome.facts ?? (outcome.failure === undefined ? undefined : blank()), ...outcome, ui, json, detailedExitcode, afterRun: ending };
  } catch (failure) {
    scopeFixes(failure, line.argv);
    return { facts: blank(), failure, ui, json, afterRun: ending };
  } finally {
    ui.done();
    await closeAll(stores);
  }
}

interface Terminal {
  readonly ui: Awaited<ReturnType<typeof terminalUi>>;
  readonly signal: AbortSignal | undefined;
  readonly protectedName: string | undefined;
  readonly review: CommandContext['run']['review'];
  readonly stores: Map<string, Promise<StateStore>>;
}

function context(
  args: Args,
  flags: TargetedFlags,
  target: ChosenTarget | undefined,
  config: LoadedConfig | undefined,
  io: RunIo,
  line: CommandLine,
  terminal: Terminal | undefined,
  say: (line: string) => void,
): CommandContext {
  const signal = terminal?.signal;
  const stores = terminal?.stores ?? new Map<string, Promise<StateStore>>();
  const store = (spec_?: string): Promise<StateStore> => {
    const which = spec_ ?? String(flags.settings.state.value);
    let opened = stores.get(which);
    if (!opened) {
      opened = (async () => {
        const { openStore } = await import('../state/index.js');
        const s = await openStore(which, { env: io.env, signal });
        const inform = terminal ? (line: string) => terminal.ui.info(line) : say;
        for (const message of s.notices) inform(message);
        return s;
      })();
      stores.set(which, opened);
    }
    return opened;
  };
  return {
    args,
    flags,
    io,
    line,
    target,
    config,
    settings: flags.settings,
    store,
    say,
    run: {
      env: io.env,
      stdin: () => io.stdin,
      signal,
      tuning: io.tuning,
      review: terminal?.review,
      emit: terminal ? (event) => renderEvent(terminal.ui, event) : () => {},
      // A protected target is confirmed by typing its name, not by a habitual y.
      confirm: terminal ? (request) => terminal.ui.confirm(confirmQuestion(request), terminal.protectedName) : () => Promise.resolve(false),
      confirmAnswer: terminal?.protectedName !== undefined ? `type the target's name, ${terminal.protectedName},` : undefined,
      openStore: store,
      files: outputFiles,
    },
  };
}

/** A store opened before the run (the policy gate), once per location. */
function openOnce(stores: Map<string, Promise<StateStore>>, which: string, env: NodeJS.ProcessEnv): Promise<StateStore> {
  let opened = stores.get(which);
  if (!opened) {
    opened = import('../state/index.js').then(({ openStore }) => openStore(which, { env }));
    stores.set(which, opened);
  }
  return opened;
}

async function closeAll(stores: Map<string, Promise<StateStore>>): Promise<void> {
  for (const opened of stores.values()) {
    const store = await opened.catch(() => undefined);
    await store?.close();
  }
}

/** The post-run point: the review page and the notification, with the final report. */
function ended(
  after: AfterRun,
  baseUrl: string | null,
  ui: { notice(line: string): void },
  io: RunIo,
): (end: Parameters<NonNullable<CommandResult['afterRun']>>[0], stop: AbortSignal) => Promise<void> {
  return async ({ report }, stop) => {
    if (report) await afterRun(after, report, baseUrl, io, (line) => ui.notice(line), stop);
  };
}

/**
 * A command that does not watch the signal (history, export, policy, config, state) stops at the first
 * Ctrl-C or SIGTERM, wherever it waits (a PostgreSQL server that never answers, a big file), with the
 * documented exit 130 rather than Node's default (143 for SIGTERM, and no word). What it writes is
 * written atomically, so nothing half-written is left; a lock file it holds is removed on the way out.
 */
function stopAtOnce(): { signal: undefined; dispose(): void } {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const dispose = () => signals.forEach((s) => process.off(s, handler));
  function handler(signal: NodeJS.Signals): void {
    leaveNow(EXIT.interrupted, `upload: interrupted (${signal === 'SIGINT' ? 'Ctrl-C' : signal})\n  → run again when ready\n`);
  }
  signals.forEach((s) => process.on(s, handler));
  return { signal: undefined, dispose };
}

/**
 * The first Ctrl-C (or a SIGTERM, as from `timeout` or a cron supervisor) aborts the run, which then
 * ends as `interrupted` with its report and releases its lock; a second one gets Node's default
 * behaviour and ends the process at once.
 */
function onInterrupt(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const dispose = () => signals.forEach((s) => process.off(s, handler));
  function handler(signal: NodeJS.Signals): void {
    if (controller.signal.aborted) {
      dispose();
      process.kill(process.pid, signal);
      return;
    }
    const how = signal === 'SIGINT' ? 'Ctrl-C' : signal;
    controller.abort(
      new Interrupted('INTERRUPTED', `interrupted (${how}) before the upload was sent; nothing was changed on the service`, 'run again when ready'),
    );
  }
  signals.forEach((s) => process.on(s, handler));
  return { signal: controller.signal, dispose };
}
