// The history chart's summary sentence (console-api.md "Time"; the server's points, in the
// console's one vocabulary, lib/words). The clock reads to the minute, so a verdict held
// for less than a minute cannot be dated "from 07:10 to 07:10": an on-call engineer wants
// to know that the table flapped, between what, how often and when, not each flip. So:
// * a verdict held a minute or more reads "skipped … from 02:10 to 03:40", as before;
// * a lone brief one is dated to the second ("merge running from 07:10:05 to 07:10:40");
// * brief ones in a row read as one sentence: "alternated between placed and merge
//   running 14 times from 07:10 to 07:14" (with seconds when it all fell in one minute);
// * the last verdict runs to now (or the pin) and is never folded in; it starts where the
//   part before it ended, dated as precisely ("… to 07:10:40, then placed from 07:10:40").
import { verdictSpans, type HistoryResponse, type VerdictSpan } from "@/lib/client/resources/table-history";
import { stateInWords } from "@/lib/words/time-in-state";

/** shorter than the clock's precision (it reads to the minute) */
const BRIEF_MS = 60_000;

const minutes = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const seconds = (ms: number) => new Date(ms).toISOString().slice(11, 19);
const words = (s: VerdictSpan) => stateInWords(s.state, s.code);

/** to the second when both ends read the same minute */
const clockFor = (fromMs: number, toMs: number) => (minutes(fromMs) === minutes(toMs) ? seconds : minutes);

/** "from 07:10 to 07:14", to the second when both ends read the same minute */
function fromTo(fromMs: number, toMs: number): string {
  const clock = clockFor(fromMs, toMs);
  return `from ${clock(fromMs)} to ${clock(toMs)}`;
}

/** "a and b", "a, b and c" */
function listed(items: readonly string[]): string {
  return items.length === 1 ? items[0] : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** Brief spans in a row, said once: what it switched between, how many times, over what stretch. */
function flapping(run: readonly VerdictSpan[]): string {
  if (run.length === 1) return `${words(run[0])} ${fromTo(run[0].fromMs, run[0].toMs)}`;
  const states = [...new Set(run.map(words))];
  const verb = states.length === 2 ? "alternated between" : "changed between";
  return `${verb} ${listed(states)} ${run.length} times ${fromTo(run[0].fromMs, run.at(-1)!.toMs)}`;
}

/**
 * "Skipped for no_free_slot from 02:10 to 03:40, then placed from 03:40"; `pinned`: the
 * page is pinned, so the last span runs to the pin's time, never "to now".
 */
export function historySummary(h: HistoryResponse, pinned = false): string {
  const spans = verdictSpans(h.points, h.to_ms);
  if (spans.length === 0) return "No change to this table's keys in this window.";
  const parts: string[] = [];
  let run: VerdictSpan[] = [];
  /** how the part before was dated (the last span starts where it ended) */
  let clock = minutes;
  const flush = () => {
    if (run.length > 0) {
      parts.push(flapping(run));
      clock = clockFor(run[0].fromMs, run.at(-1)!.toMs);
    }
    run = [];
  };
  spans.forEach((s, i) => {
    const last = i === spans.length - 1;
    if (!last && s.toMs - s.fromMs < BRIEF_MS) {
      run.push(s);
      return;
    }
    flush();
    if (!last) {
      parts.push(`${words(s)} ${fromTo(s.fromMs, s.toMs)}`);
      clock = clockFor(s.fromMs, s.toMs);
    } else if (spans.length > 1) parts.push(`then ${words(s)} from ${clock(s.fromMs)}`);
    else parts.push(`${words(s)} ${pinned ? fromTo(s.fromMs, h.to_ms) : `from ${minutes(s.fromMs)} to now`}`);
  });
  return parts.join(", ").replace(/^./, (c) => c.toUpperCase()) + ".";
}
