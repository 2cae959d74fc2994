import { useRef, useState } from 'react';
import { plural } from '../../analysis';
import { parseScanRules } from '../../format';
import { readWith, useReadOptions, useSelection } from '../../state';
import './scanners.css';

/** Reads a rule file and checks it: its text for the URL, or the error naming the rule and field. */
async function readRuleFile(file: File): Promise<{ text: string } | { error: string }> {
  let text: string;
  try {
    text = await file.text();
  } catch (e) {
    return { error: `${file.name}: cannot read it (${e instanceof Error ? e.message : String(e)})` };
  }
  try {
    parseScanRules(text);
  } catch (e) {
    return { error: `${file.name}: ${e instanceof Error ? e.message : String(e)}` };
  }
  // Held compact in the URL: the same rules in fewer characters.
  return { text: JSON.stringify(JSON.parse(text)) };
}

/**
 * The scanner rules the files are read with (docs/scanners.md): the default set, or a rule file opened
 * here, one at a time as `lint --rules default|FILE`. Their hits become W_SCAN / E_SCAN findings, in the
 * code filter and on the steps they cite. A file that does not parse changes nothing and says why. A run's
 * rows are what its index was built with (`trajscope index --rules`), so this is for files.
 */
export function ScannersControl() {
  const { scanners, rules, rulesProblem } = useReadOptions();
  const { run } = useSelection();
  const [error, setError] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  if (run !== null) return null;
  const on = scanners || rules !== null;
  const shown = error ?? (rulesProblem && `The link’s rule file is not applied: ${rulesProblem}`);
  return (
    <span className="scanners">
      <label
        className="filters__check"
        title="Run scanner rules over each rollout. The default set: edited tests, rewards against the verdict, loops, undone edits, crashes under a finish, infra errors in the signal"
      >
        <input
          type="checkbox"
          checked={on}
          onChange={(e) => readWith(e.target.checked ? { scanners: true } : { scanners: false, rules: null })}
        />
        {on ? 'Scanners:' : 'Scanners'}
        {on && <span className="scanners__set">{rules ? `${rules.name} (${plural(rules.count, 'rule')})` : 'default'}</span>}
      </label>
      <button type="button" className="link-button" onClick={() => picker.current?.click()}>
        Rules file…
      </button>
      <input
        ref={picker}
        type="file"
        accept=".json,application/json"
        hidden
        aria-label="Scanner rule file"
        onChange={async (e) => {
          const file = e.target.files?.[0];
          // The same file chosen again (after fixing it) must fire a change.
          e.target.value = '';
          if (!file) return;
          const read = await readRuleFile(file);
          if ('error' in read) return setError(read.error);
          setError(null);
          readWith({ rules: { name: file.name, text: read.text } });
        }}
      />
      {shown && (
        <span className="scanners__error" role="alert">
          {shown}
          {error && (
            <button type="button" className="scanners__dismiss" aria-label="Dismiss the rule file error" onClick={() => setError(null)}>
              ×
            </button>
          )}
        </span>
      )}
    </span>
  );
}
