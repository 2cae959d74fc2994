/** Adam's settings (Kingma & Ba); the step size is per parameter, so the objective's scale hardly matters. */
export interface AdamConfig {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
}

const DEMO_ADAM: AdamConfig = { lr: 0.1, beta1: 0.9, beta2: 0.999, eps: 1e-8 };

/** Adam ascending an objective: `step` returns theta + lr * m_hat / (sqrt(v_hat) + eps). */
export class Adam {
  private m: number[] = [];
  private v: number[] = [];
  private t = 0;

  constructor(private readonly cfg: AdamConfig = DEMO_ADAM) {}

  step(theta: readonly number[], grad: readonly number[]): number[] {
    const { lr, beta1, beta2, eps } = this.cfg;
    this.t++;
    return theta.map((x, i) => {
      const g = grad[i] ?? 0;
      const m = beta1 * (this.m[i] ?? 0) + (1 - beta1) * g;
      const v = beta2 * (this.v[i] ?? 0) + (1 - beta2) * g * g;
      this.m[i] = m;
      this.v[i] = v;
      const mHat = m / (1 - beta1 ** this.t);
      const vHat = v / (1 - beta2 ** this.t);
      return x + (lr * mHat) / (Math.sqrt(vHat) + eps);
    });
  }
}
