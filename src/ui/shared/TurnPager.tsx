import { type FormEvent, useState } from 'react';
import { formatCount } from '../../analysis';
import './shared.css';

interface Props {
  /** What the list is called, for the controls' names ("Steps", "Events"). */
  label: string;
  page: number;
  pages: number;
  /** The page's turns, 0-based [from, to), and the turns in all. */
  from: number;
  to: number;
  turns: number;
  onPage: (page: number) => void;
  /** Goes to a step by number (the URL's step=); 1..steps. */
  onGoToStep: (step: number) => void;
  steps: number;
  /** What a page holds and what "go to" takes: turns and a step (the default), or compare's rows and a row. */
  unit?: { items: string; goTo: string };
}

const TURNS = { items: 'turns', goTo: 'step' };

/** Moves between the pages of a huge rollout's view (turnPages.ts), or to any step (or row) by number. */
export function TurnPager({ label, page, pages, from, to, turns, onPage, onGoToStep, steps, unit = TURNS }: Props) {
  const [wanted, setWanted] = useState('');
  const go = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(wanted);
    if (Number.isInteger(n) && n >= 1 && n <= steps) onGoToStep(n);
  };
  return (
    <nav className="turn-pager" aria-label={`${label} pages`}>
      <span className="turn-pager__where">
        {unit.items} {formatCount(from + 1)}–{formatCount(to)} of {formatCount(turns)} · page {formatCount(page + 1)} of{' '}
        {formatCount(pages)}
      </span>
      <button type="button" className="small-button" disabled={page === 0} onClick={() => onPage(0)}>
        « First
      </button>
      <button type="button" className="small-button" disabled={page === 0} onClick={() => onPage(page - 1)}>
        ‹ Earlier
      </button>
      <button type="button" className="small-button" disabled={page >= pages - 1} onClick={() => onPage(page + 1)}>
        Later ›
      </button>
      <button type="button" className="small-button" disabled={page >= pages - 1} onClick={() => onPage(pages - 1)}>
        Last »
      </button>
      <form className="turn-pager__go" onSubmit={go}>
        <label>
          Go to {unit.goTo}{' '}
          <input
            type="number"
            min={1}
            max={steps}
            value={wanted}
            onChange={(e) => setWanted(e.target.value)}
            placeholder={`1–${formatCount(steps)}`}
          />
        </label>
        <button type="submit" className="small-button" disabled={steps === 0}>
          Go
        </button>
      </form>
    </nav>
  );
}
