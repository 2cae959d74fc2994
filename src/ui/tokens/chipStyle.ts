import { TokenRole } from '../../analysis';
import { roleInfo } from './roles';
import { DRIFT_OVER, drift, driftLevel, shade } from './shade';

/** What the chips are shaded by: the sampled probability, or |trainer − sampled| (drift). */
export type ShadeMode = 'probability' | 'drift';

export interface ChipStyle {
  className: string;
  /** `data-role`: the role's stable name. */
  role: string;
  /** `data-drift`: 'over' above the threshold, 'under' at or below it, null when not compared or not in drift mode. */
  drift: 'over' | 'under' | null;
  /** |trainer − sampled| in nats, when both exist. */
  difference: number | null;
}

/**
 * Classes of one chip. The role decides fill and border (only trained tokens are filled, so "which
 * tokens carry loss" reads at a glance); the shade level then sets how strong that fill is. A masked
 * generated token shows its probability as an underline instead, since it has no fill.
 */
export function chipStyle(
  role: number,
  sampled: number | null | undefined,
  trainer: number | null | undefined,
  mode: ShadeMode,
  threshold: number,
): ChipStyle {
  const info = roleInfo(role);
  const classes = ['tok', `tok--${info.name}`];
  const difference = drift(trainer, sampled);
  let driftMark: ChipStyle['drift'] = null;
  const generated = role === TokenRole.Trained || role === TokenRole.Masked || role === TokenRole.WronglyTrained;
  if (mode === 'drift') {
    const level = driftLevel(difference, threshold);
    if (level !== null) {
      classes.push(`tok--d${level}`);
      driftMark = level === DRIFT_OVER ? 'over' : 'under';
    } else if (generated) classes.push('tok--dnone');
  } else if (generated) {
    const level = shade(sampled ?? null);
    classes.push(level === null ? 'tok--pnone' : `tok--p${level}`);
  }
  return { className: classes.join(' '), role: info.name, drift: driftMark, difference };
}
