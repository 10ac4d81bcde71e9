// The engine's events in words, for a person: which lines, in which colour, at which level.
import { plural, thousands } from '../numbers.js';
import { KINDS } from '../contract/kinds.js';
import { showSendEvent } from './send-progress.js';
import type { RunEvent } from '../pipeline/events.js';
import { formatGuards } from './guards.js';
import { formatDiff, formatIssues, formatMapping, formatRecord } from './human.js';
import { describeBaseline } from '../report/report.js';
import type { Ui } from './ui.js';

export function renderEvent(ui: Ui, event: RunEvent): void {
  const { style } = ui;
  switch (event.type) {
    case 'lock-recovered': {
      const r = event.owner;
      ui.notice(
        style.yellow(
          `Recovered a stale lock left by process ${r.pid} of ${r.user} on ${r.host} (since ${r.since}), which is no longer running or whose lease expired.`,
        ),
      );
      return;
    }
    case 'reading':
      ui.progress(event.records === null ? `Reading ${event.source}…` : `Reading ${event.source}: ${thousands(event.records)} records`);
      return;
    case 'read':
    case 'sent':
      ui.done();
      return;
    case 'warning':
      ui.notice(style.yellow(event.message));
      return;
    case 'notice':
      ui.info(event.message);
      return;
    case 'restoring':
      ui.info(`Restoring ${describeBaseline(event.upload, event.kind)}`);
      return;
    case 'applying':
      ui.info(
        `Plan ${event.plan}: ${plural(event.records, 'record')} from ${event.source}, made ${event.planner ? `by ${event.planner} (as the state store recorded it), on ${event.host}` : `by ${event.user}@${event.host}`} at ${event.createdAt}`,
      );
      return;
    case 'plan-saved':
      ui.info(`Plan saved to ${event.path}: ${event.next ?? `send exactly it with: upload apply ${event.path}`}`);
      return;
    case 'recorded':
      ui.info(`Recorded as upload #${event.generation} in ${event.store}`);
      return;
    case 'planned':
      for (const line of formatIssues(event.source, event.issues, style)) ui.notice(line);
      if (event.truncated) {
        ui.notice(
          style.dim(
            `  (${plural(event.errors, 'error')} and ${plural(event.warnings, 'warning')} in all; the first ${thousands(event.issues.length)} are listed here and in --json, every rejected row is in --errors-csv)`,
          ),
        );
      }
      if (event.errors === 0)
        ui.info(`${event.source}: ${plural(event.rows, 'record')} valid${event.warnings ? `, ${plural(event.warnings, 'warning')}` : ''}`);
      return;
    case 'preview':
      if (event.mapping.length) {
        ui.info('Mapping used (wire field ← column):');
        for (const line of formatMapping(event.mapping)) ui.info(`  ${line}`);
      }
      if (event.first.length) {
        ui.info(
          event.first.length < event.total
            ? `The first ${event.first.length} of ${plural(event.total, 'record')} as they will be sent:`
            : 'The records as they will be sent:',
        );
        event.first.forEach((json, i) => ui.info(`  ${i + 1}. ${formatRecord(json)}`));
      }
      return;
    case 'diff':
      for (const line of formatDiff(event.diff, style, { baseline: event.against, kind: event.kind })) ui.info(line);
      if (event.noBaselineWhy) ui.info(`  ${event.noBaselineWhy}`);
      return;
    case 'held': {
      const { noun } = KINDS[event.kind];
      const shown = event.held.slice(0, 5).join(', ') + (event.held.length > 5 ? `, and ${thousands(event.held.length - 5)} more` : '');
      ui.notice(
        style.yellow(
          `Removals held back (--hold-removals): the file leaves out ${plural(event.held.length, noun)} (${shown}) that --max-removals does not allow removing; they are sent as recorded, so nothing is deleted. If they are meant to go: once this upload is recorded, \`upload ${event.release.join(' ')}\` removes exactly them (or run again with --max-removals ${event.held.length}).`,
        ),
      );
      return;
    }
    case 'plan-held': {
      const shown = event.held.slice(0, 5).join(', ') + (event.held.length > 5 ? `, and ${thousands(event.held.length - 5)} more` : '');
      ui.notice(
        style.yellow(
          `${plural(event.held.length, 'removal')} held back: ${shown}. The plan was made with --hold-removals: it keeps them on the service as recorded, so nothing is deleted. Once it is applied, \`upload ${event.release.join(' ')}\` removes exactly them.`,
        ),
      );
      return;
    }
    case 'guard-notes':
      for (const note of event.notes) ui.notice(style.yellow(note));
      return;
    case 'guards':
      for (const line of formatGuards(event.kind, event.guards, style)) ui.notice(line);
      return;
    case 'dry-run': {
      const { noun } = KINDS[event.kind];
      ui.notice(`Dry run: ${plural(event.count, noun)} would replace every ${noun} on the service. Nothing was sent.`);
      if (event.needs.length) ui.notice(`A real run would also need ${event.needs.join('; ')}.`);
      return;
    }
    case 'sending':
      ui.progress(`Sending ${plural(event.count, KINDS[event.kind].noun)} to ${event.origin}…`);
      return;
    case 'send':
      showSendEvent(ui, event.event, event.origin);
      return;
    case 'uploaded':
      ui.notice(style.green(`✓ ${event.message}`));
      return;
    case 'released': {
      const shown = event.keys.slice(0, 10).join(', ') + (event.keys.length > 10 ? `, and ${thousands(event.keys.length - 10)} more` : '');
      ui.notice(style.green(`Released ${plural(event.keys.length, 'held removal')} of upload #${event.generation}: ${shown} are no longer on the service.`));
    }
  }
}
