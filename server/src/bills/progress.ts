import { PROGRESS_STATES, type ProgressKind, type ProgressState } from '@p8/contract/bills/status';
import { max, type Micro } from '@p8/contract/bills/decimal';
import { refusal, type RefusalRefs } from '../core/errors.ts';

/**
 * Push-down arithmetic, pure. A source line of quantity N feeds downstream lines of one progress kind
 * (an order line feeds in-stock lines): what they take counts against N whatever their status (two
 * drafts cannot both take the whole order), what their audited bills did sets the progress state
 * (NoInstock → PartialInStock → AllInStock). A line closed by manual completion has nothing open.
 */

/** What is still open on a source line: its quantity less what downstream lines took, never below zero. */
export function openQuantity(number: Micro, taken: Micro, closed: boolean): Micro {
  return closed ? 0n : max(number - taken, 0n);
}

/** The state of a progress set for a done quantity (audited downstream) out of `number`. */
export function progressState(kind: ProgressKind, number: Micro, done: Micro): ProgressState {
  const [none, partial, all] = PROGRESS_STATES[kind];
  if (done <= 0n) return none;
  return done >= number ? all : partial;
}

/** A bill's progress from its lines: none of them started, all of them done, or in between. */
export function overallProgress(lines: ReadonlyArray<{ number: Micro; done: Micro }>): 'none' | 'partial' | 'all' {
  if (lines.every((l) => l.done <= 0n)) return 'none';
  return lines.every((l) => l.done >= l.number) ? 'all' : 'partial';
}

/**
 * Refuses a downstream quantity beyond what is open on its source line, unless the type's `allow…Beyond`
 * switch is on. `requested` is the quantity this bill's line asks for, `open` what was open before it
 * (its own earlier take excluded). The refusal names this bill's line number, its material and the source bill.
 */
export function checkTake(requested: Micro, open: Micro, allowBeyond: boolean, about: { line?: number; refs?: RefusalRefs } = {}): void {
  if (requested > open && !allowBeyond) throw refusal('NumberExceedSourceBill', about.refs ?? {}, { line: about.line, need: requested, have: open });
}
