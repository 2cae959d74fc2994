import { type Rollout, type Step, segmentCallIds } from '../format';
import { finding } from './finding';
import { firstFinishStep } from './timeline';
import type { Finding } from './types';

/** Times the environment actually ran a step's call (`executions`, default 1): 0 never ran, above 1 is E_DUPLICATE_EXECUTION. */
export function executionsOf(step: Pick<Step, 'executions'>): number {
  return step.executions ?? 1;
}

/** A step the policy took: `actor` absent or "agent" (adapters name any other actor, e.g. tau2's "user"). */
function policyStep(step: Step): boolean {
  const actor = step.actor;
  return actor === undefined || actor === 'agent';
}

/** Harness-side checks: duplicate executions, orphan calls, actions after finish. */
export function stepFindings(record: Rollout): Finding[] {
  const out: Finding[] = [];
  const steps = record.steps;
  if (!steps) return out;
  const firstByCall = new Map<string, number>();
  steps.forEach((s, i) => {
    const step = i + 1;
    const first = firstByCall.get(s.tool_call_id);
    if (first !== undefined) {
      out.push(
        finding('E_DUPLICATE_EXECUTION', `step ${step}: tool_call_id "${s.tool_call_id}" was already executed at step ${first}`, { step }),
      );
    } else {
      firstByCall.set(s.tool_call_id, step);
    }
    if (executionsOf(s) > 1) {
      out.push(finding('E_DUPLICATE_EXECUTION', `step ${step}: tool_call_id "${s.tool_call_id}" executed ${s.executions} times`, { step }));
    }
  });
  const called = new Set<string>();
  record.segments.forEach((seg, i) => {
    // A generation that made several calls at once lists them all in `tool_call_ids` (adapters, docs/formats.md).
    const ids = segmentCallIds(seg);
    for (const id of ids) {
      called.add(id);
      if (!firstByCall.has(id)) out.push(finding('W_ORPHAN_CALL', `segment ${i}: tool_call_id "${id}" has no step`, { segment: i }));
    }
  });
  steps.forEach((s, i) => {
    // A step another actor took (tau2's simulated user calling its own tools: `actor: "user"`) was executed,
    // but no generation of the policy made it: it has no segment to pair with, and that is no defect.
    if (!called.has(s.tool_call_id) && policyStep(s)) {
      out.push(finding('W_ORPHAN_CALL', `step ${i + 1}: tool_call_id "${s.tool_call_id}" has no segment`, { step: i + 1 }));
    }
  });
  const finish = firstFinishStep(record);
  if (finish !== null) {
    for (let step = finish + 1; step <= steps.length; step++) {
      out.push(finding('W_ACTION_AFTER_FINISH', `step ${step} (${steps[step - 1]?.tool}) follows finish at step ${finish}`, { step }));
    }
  }
  return out;
}
