import { describe, expect, it } from 'vitest';
import { TokenRole } from '../../analysis';
import { chipStyle } from './chipStyle';

describe('chipStyle', () => {
  it('names the role and shades generated tokens by probability', () => {
    expect(chipStyle(TokenRole.Trained, Math.log(0.95), null, 'probability', 1)).toMatchObject({
      className: 'tok tok--trained tok--p0',
      role: 'trained',
      drift: null,
    });
    expect(chipStyle(TokenRole.Masked, Math.log(0.05), null, 'probability', 1).className).toBe('tok tok--masked tok--p5');
    expect(chipStyle(TokenRole.WronglyTrained, null, null, 'probability', 1).className).toBe('tok tok--wrongly-trained tok--pnone');
  });

  it('leaves context and padding unshaded', () => {
    expect(chipStyle(TokenRole.Context, null, null, 'probability', 1).className).toBe('tok tok--context');
    expect(chipStyle(TokenRole.After, null, -3, 'probability', 1).className).toBe('tok tok--after');
  });

  it('drift mode shades by |trainer − sampled| and marks tokens above the threshold', () => {
    const over = chipStyle(TokenRole.Trained, -0.2, -1.9, 'drift', 1);
    expect(over.className).toBe('tok tok--trained tok--d3');
    expect(over.drift).toBe('over');
    expect(over.difference).toBeCloseTo(1.7);
    expect(chipStyle(TokenRole.Trained, -0.2, -0.25, 'drift', 1)).toMatchObject({ className: 'tok tok--trained tok--d0', drift: 'under' });
    expect(chipStyle(TokenRole.Trained, -0.2, null, 'drift', 1)).toMatchObject({ className: 'tok tok--trained tok--dnone', drift: null });
    expect(chipStyle(TokenRole.Context, null, -2, 'drift', 1).className).toBe('tok tok--context');
  });
});
