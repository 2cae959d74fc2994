import { describe, expect, it } from 'vitest';
import { parseFieldMapping, starterMapping } from '../../format';
import { previewMapping } from './previewMapping';

const enc = new TextEncoder();

describe('mapping preview', () => {
  const head = enc.encode('{"id":"a","score":1,"outcome":"ok"}\n{"id":"b","score":0,"outcome":"timeout"}\n{"id":"c","sc');

  it('reads the first records of a file’s head as the load would, dropping the cut last line', () => {
    const mapping = parseFieldMapping(
      '{"rollout_id":"id","reward":"score","status":"outcome","status_map":{"ok":"finished","timeout":"budget_exhausted"}}',
    );
    const results = previewMapping('d.jsonl', head, mapping, false);
    expect(
      results.map((r) =>
        r.kind === 'rollout' ? [r.value.record.rollout_id, r.value.record.termination, r.value.record.reward] : r.value.message,
      ),
    ).toEqual([
      ['a', 'finished', 1],
      ['b', 'budget_exhausted', 0],
    ]);
  });

  it('starts from the first record’s fields, placed where their names suggest', () => {
    expect(JSON.parse(starterMapping(head))).toEqual({
      rollout_id: 'id',
      reward: 'score',
      status: 'outcome',
      status_map: { CHANGE_ME: 'finished' },
    });
  });
});
