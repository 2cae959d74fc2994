import { useMemo, useRef, useState } from 'react';
import { markRegexes, plural } from '../../analysis';
import type { Rollout } from '../../format';
import { isHugeRecord, PAGE_TURNS } from '../../load';
import { type SelectedRollout, selectStep, useSelectedRollout, useSelection } from '../../state';
import { BuildingNote } from '../shared/BuildingNote';
import { SearchMarks } from '../shared/marks';
import { TurnPager } from '../shared/TurnPager';
import { pageCount, pageOfTurn, turnsOfPage } from '../shared/turnPages';
import { usePass } from '../shared/usePass';
import { RolloutFindings } from './steps/FindingBadge';
import { type Hold, StepsPage } from './steps/StepsPage';
import { type StepsModel, stepsModelPass } from './steps/stepsModel';
import { useExpanded } from './steps/useExpanded';
import './steps/steps.css';

/**
 * The rollout step by step: per turn what the model did (action), got back (observation) and saw
 * (model-visible context), between the task and the grader's private verdict. The selected step is
 * the URL's `step=`.
 */
export function StepsView() {
  const selected = useSelectedRollout();
  if (!selected?.record) return null;
  // A new rollout starts with its own scroll position and folds.
  return <StepsModelled key={selected.key} record={selected.record} summary={selected.summary} />;
}

/** The rows' model: at once, or for a huge rollout built in slices with a note saying how far. */
function StepsModelled({ record, summary }: { record: Rollout; summary: SelectedRollout['summary'] }) {
  const { value: model, done } = usePass(() => stepsModelPass(record, summary), isHugeRecord(record), [record, summary]);
  if (!model) return <BuildingNote what={`Lining up ${plural(summary.steps, 'step')} with their generations and findings`} done={done} />;
  return <StepsList record={record} model={model} />;
}

/**
 * A huge rollout's rows come in pages of `PAGE_TURNS` turns: the page a row is on, and a page's rows
 * [from, to). A rollout that is not huge (isHugeRecord) is one page, shown whole as before issue 18.
 */
function rowPages(model: StepsModel, per: number) {
  const turns = model.count - 3;
  const pages = pageCount(turns, per);
  const pageOfRow = (row: number) => (row <= 0 ? 0 : row >= model.count - 2 ? pages - 1 : pageOfTurn(row - 1, turns, per));
  const rowsOf = (page: number) => {
    const { from, to } = turnsOfPage(page, turns, per);
    return { from: page === 0 ? 0 : from + 1, to: page === pages - 1 ? model.count : to + 1, turnsFrom: from, turnsTo: to };
  };
  return { turns, pages, pageOfRow, rowsOf };
}

/** The page of rows the selected step is on (or the pager's), and the pager. */
function StepsList({ record, model }: { record: Rollout; model: StepsModel }) {
  const selection = useSelection();
  const expanded = useExpanded();
  const { rowOfStep, stepCount } = model;
  const paging = rowPages(model, isHugeRecord(record) ? PAGE_TURNS : Number.MAX_SAFE_INTEGER);

  const selectedStep = selection.step !== null && rowOfStep(selection.step) !== undefined ? selection.step : null;
  const selectedRow = selectedStep === null ? null : (rowOfStep(selectedStep) ?? null);
  // The page follows the selected step (a link, ↑/↓, "go to step"); the pager moves it on its own.
  const [page, setPage] = useState(() => (selectedRow === null ? 0 : paging.pageOfRow(selectedRow)));
  const [followed, setFollowed] = useState(selectedRow);
  if (followed !== selectedRow) {
    setFollowed(selectedRow);
    if (selectedRow !== null) setPage(paging.pageOfRow(selectedRow));
  }
  const { from, to, turnsFrom, turnsTo } = paging.rowsOf(page);
  /** The selected row's index on this page, or null when it is elsewhere. */
  const local = selectedRow !== null && selectedRow >= from && selectedRow < to ? selectedRow - from : null;
  // What the view holds in place (StepsPage); kept here so that End, pressed on another page, holds
  // the end of the last page it turns to.
  const hold = useRef<Hold>('selected');
  // Opened from a search: what it looked for is marked in every cell that shows it (issue 31).
  const marks = useMemo(() => markRegexes(selection.query), [selection.query]);
  const toPage = (p: number) => {
    hold.current = null;
    setPage(p);
  };

  return (
    <SearchMarks.Provider value={marks}>
      <div className="steps">
        <RolloutFindings findings={model.rolloutFindings} />
        {paging.pages > 1 && (
          <TurnPager
            label="Steps"
            page={page}
            pages={paging.pages}
            from={turnsFrom}
            to={turnsTo}
            turns={paging.turns}
            onPage={toPage}
            onGoToStep={selectStep}
            steps={stepCount}
          />
        )}
        {/* A page is a list of its own (its own virtualizer), mounted at the selected row: see StepsPage. */}
        <StepsPage
          key={page}
          record={record}
          model={model}
          from={from}
          count={to - from}
          local={local}
          selectedStep={selectedStep}
          hold={hold}
          expanded={expanded}
          page={page}
          pages={paging.pages}
          onPage={setPage}
        />
      </div>
    </SearchMarks.Provider>
  );
}
