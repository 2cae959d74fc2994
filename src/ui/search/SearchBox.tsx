import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { setQuery, toSearch, useSelection } from '../../state';
import { SEARCH_RULES, SEARCH_TERMS } from './searchHelp';
import './search.css';

/** The one search box, in the app bar: Enter opens the search page with the query (the URL holds it). */
export function SearchBox() {
  const { query, view } = useSelection();
  // The URL is the truth: a new query (Back, a link) starts a fresh draft.
  return <SearchForm key={query} query={query} onSearchPage={view === 'search'} />;
}

/** Whether a key press belongs to a field being typed in (then `/` is a character, not a shortcut). */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

function SearchForm({ query, onSearchPage }: { query: string; onSearchPage: boolean }) {
  const [text, setText] = useState(query);
  const [help, setHelp] = useState(false);
  const helpId = useId();
  const input = useRef<HTMLInputElement>(null);
  // `/` anywhere focuses the box, as in most search-first tools.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      e.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const q = text.trim();
    if (onSearchPage) setQuery(q);
    else if (q !== '') toSearch(q);
  };
  return (
    <form className="search-box" aria-label="Search" onSubmit={submit}>
      <input
        ref={input}
        type="search"
        className="search-box__input"
        aria-label="Search rollouts"
        aria-keyshortcuts="/"
        placeholder="Search: Traceback  tool:run_shell  reward>0.5  has:regression"
        value={text}
        onChange={(e) => setText(e.target.value)}
        spellCheck={false}
      />
      <button
        type="button"
        className="search-box__help"
        aria-label="Search help"
        aria-expanded={help}
        aria-controls={helpId}
        onClick={() => setHelp((h) => !h)}
      >
        ?
      </button>
      {help && (
        <div className="search-help" id={helpId} role="dialog" aria-label="Search terms">
          <table>
            <tbody>
              {SEARCH_TERMS.map((t) => (
                <tr key={t.example}>
                  <td>
                    <code>{t.example}</code>
                  </td>
                  <td>{t.meaning}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <ul>
            {SEARCH_RULES.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
          <button type="button" className="search-help__close" onClick={() => setHelp(false)}>
            Close
          </button>
        </div>
      )}
    </form>
  );
}
