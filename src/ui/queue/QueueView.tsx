import { useMemo, useRef, useState } from 'react';
import { itemsOf, nextUndone, plural } from '../../analysis';
import { REVIEW_QUEUE_PATH, type ReviewQueue } from '../../format';
import { type LoadedQueue, type Review, type ReviewVerdict, reviewKey, useReviewQueue } from '../../load';
import { selectRollout, toRollout, useReviewActions, useReviewer, useReviewerActions, useReviewSaving, useSelection } from '../../state';
import { useReviewKeys } from '../shared/useReviewKeys';
import { QueueItemPanel } from './QueueItemPanel';
import { QueueKeys } from './QueueKeys';
import { QueueList } from './QueueList';
import { QueueOpenButton } from './QueueOpenButton';
import { ReviewerProgress } from './ReviewerProgress';
import { usePickKeys, useQueueKeys } from './useQueueKeys';
import { type QueueModel, useQueueModel } from './useQueueModel';
import './queue.css';

/**
 * The review queue page (issue 27, docs/review-queue.md): who reviews which rollouts, from the queue
 * `trajscope queue` keeps in the run (or a queue file opened here); your items in order with why each is
 * there and whether you have reviewed it, everyone's progress, and a keyboard-only flow.
 */
export function QueueView() {
  const { loaded, isPending, error } = useReviewQueue();
  if (isPending) return <div className="placeholder" aria-busy="true" />;
  if (error !== null || loaded === null) return <NoQueue error={error} />;
  return <QueuePage loaded={loaded} />;
}

function NoQueue({ error }: { error: string | null }) {
  return (
    <div className="placeholder queue-none">
      <h2>{error === null ? 'No review queue here yet' : 'The review queue could not be read'}</h2>
      {error !== null ? (
        <p className="queue-error" role="alert">
          {error}
        </p>
      ) : (
        <p>
          A review queue says who reviews which rollouts: every grader / regrade disagreement first, then scanner hits, then a sample by
          grader verdict. Make one in the run, and <code>trajscope view</code> shows it here:
        </p>
      )}
      <pre className="queue-none__command">
        trajscope queue RUN --reviewers ana,ben --size 50 [--regrade DIR] [--rules default]{'\n'}trajscope view RUN
      </pre>
      <p>
        It is written to <code>RUN/{REVIEW_QUEUE_PATH}</code>. Or open a queue file:
      </p>
      <QueueOpenButton primary />
    </div>
  );
}

function QueuePage({ loaded }: { loaded: LoadedQueue }) {
  const { queue } = loaded;
  const model = useQueueModel(queue);
  const me = useReviewer().trim();
  const known = queue.reviewers.includes(me);
  return (
    <div className="queue">
      <header className="queue__head">
        <div>
          <h2>Review queue</h2>
          <p className="faint">
            {plural(queue.items.length, 'item')} for {plural(queue.reviewers.length, 'reviewer')}
            {queue.overlap > 1 ? `, each item to ${queue.overlap} of them` : ''} · from <code>{loaded.from}</code>
            {queue.seed !== null ? ` · seed ${queue.seed}` : ''}
          </p>
        </div>
        <ReviewerPicker queue={queue} me={me} />
        <QueueOpenButton />
      </header>
      <div className="queue__body">
        <div className="queue__main">
          {known ? <MyQueue queue={queue} model={model} me={me} /> : <ChooseReviewer names={queue.reviewers} />}
        </div>
        <aside className="queue__side">
          <ReviewerProgress progress={model.progress} me={me} model={model} />
          <QueueKeys />
        </aside>
      </div>
    </div>
  );
}

/** Names a key picks (1 to 9), so choosing who you are needs no mouse either. */
const PICKED_BY_KEY = 9;

/** Before your items: who you are, by a number key or the picker above. */
function ChooseReviewer({ names }: { names: readonly string[] }) {
  const { setReviewer } = useReviewerActions();
  usePickKeys(names.slice(0, PICKED_BY_KEY), setReviewer);
  return (
    <div className="queue-card queue-choose">
      <h3>Who are you?</h3>
      <p>Press your number, or choose your name above, to see the items given to you.</p>
      <ol className="queue-choose__names">
        {names.slice(0, PICKED_BY_KEY).map((n, i) => (
          <li key={n}>
            <button type="button" className="btn" onClick={() => setReviewer(n)}>
              <kbd>{i + 1}</kbd> {n}
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** Your name, from the reviewer store every review is signed with. */
function ReviewerPicker({ queue, me }: { queue: ReviewQueue; me: string }) {
  const { setReviewer } = useReviewerActions();
  const known = queue.reviewers.includes(me);
  return (
    <label className="queue-picker">
      Reviewing as
      <select value={known ? me : ''} onChange={(e) => setReviewer(e.target.value)}>
        {!known && <option value="">{me === '' ? 'choose your name' : `${me} (not in this queue)`}</option>}
        {queue.reviewers.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
    </label>
  );
}

function MyQueue({ queue, model, me }: { queue: ReviewQueue; model: QueueModel; me: string }) {
  const { rollout } = useSelection();
  const actions = useReviewActions();
  const mine = useMemo(() => itemsOf(queue, me), [queue, me]);
  const keyOf = (index: number) => model.pageKeys[index] ?? queue.items[index]?.rollout ?? '';
  const found = mine.findIndex((i) => keyOf(i) === rollout);
  const current = found >= 0 ? found : mine.length > 0 ? 0 : -1;
  const index = mine[current];
  const item = index === undefined ? undefined : queue.items[index];
  const digest = index === undefined ? null : (model.digests[index] ?? null);
  const pageKey = index === undefined ? null : (model.pageKeys[index] ?? null);
  const myReview = index === undefined ? undefined : model.reviews[index]?.get(me);
  const saving = useReviewSaving(digest, item ? reviewKey(item) : '');
  const [draft, setDraft] = useState<{ key: string; note: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const ready = item !== undefined && pageKey !== null && digest !== null && model.status === 'ready';
  const note = item && draft?.key === item.rollout ? draft.note : (myReview?.note ?? '');
  const done = (i: number) => model.reviews[i]?.has(me) ?? false;

  const go = (position: number) => {
    const to = mine[position];
    if (to !== undefined) selectRollout(keyOf(to));
  };
  const save = (patch: Pick<Review, 'verdict' | 'note'>) => {
    if (!ready || !item || digest === null) return;
    setError(null);
    setDraft(null);
    const review: Review = {
      rollout_id: item.rollout_id,
      attempt_id: item.attempt_id,
      ...patch,
      reviewer: me,
      timestamp: new Date().toISOString(),
    };
    actions.save(digest, review).catch((e: unknown) => setError(`The review could not be saved: ${String(e)}`));
  };
  const mark = (verdict: ReviewVerdict) => save({ verdict, note });
  const open = (position = current) => {
    const to = mine[position];
    const key = to === undefined ? null : (model.pageKeys[to] ?? null);
    if (key !== null) toRollout(key, 'audit');
    else if (to !== undefined) setError('This rollout is not in the loaded data: open the files the queue was made from.');
  };
  const next = () => {
    const to = nextUndone(mine, current, done);
    if (to !== null) go(to);
  };
  useReviewKeys(ready, mark);
  useQueueKeys(mine.length > 0, {
    move: (by) => go(Math.min(mine.length - 1, Math.max(0, current + by))),
    open: () => open(),
    next,
    note: () => noteRef.current?.focus(),
  });

  if (mine.length === 0 || !item || index === undefined) {
    return (
      <div className="queue-card queue-choose">
        <h3>Nothing for {me}</h3>
        <p>This queue gives no items to {me}.</p>
      </div>
    );
  }
  const doneCount = mine.filter(done).length;
  return (
    <>
      <QueueItemPanel
        item={item}
        position={current}
        of={mine.length}
        mine={myReview}
        others={[...(model.reviews[index]?.values() ?? [])].filter((r) => r.reviewer !== me)}
        ready={ready}
        waiting={
          pageKey === null
            ? 'not in the loaded data'
            : model.status === 'error'
              ? `reviews are unavailable: ${model.error}`
              : 'reading reviews…'
        }
        saving={saving}
        note={note}
        noteRef={noteRef}
        onNote={(text) => setDraft({ key: item.rollout, note: text })}
        onNoteDone={() => {
          if (myReview && note !== myReview.note) save({ verdict: myReview.verdict, note });
        }}
        onMark={mark}
        onOpen={() => open()}
        onNext={next}
        error={error}
      />
      <section className="queue-card queue-mine" aria-labelledby="queue-mine-title">
        <h3 id="queue-mine-title">
          Your items{' '}
          <span className="faint">
            · {doneCount} of {mine.length} reviewed
          </span>
        </h3>
        <QueueList
          items={queue.items}
          mine={mine}
          current={current}
          me={me}
          reviews={model.reviews}
          pageKeys={model.pageKeys}
          onPick={go}
          onOpen={open}
        />
      </section>
    </>
  );
}
