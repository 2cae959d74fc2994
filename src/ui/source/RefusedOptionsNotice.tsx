import { readWith, useReadOptions } from '../../state';
import { Notice } from '../shared/Notice';

/**
 * Read options of the link that were refused and that no control shows beside itself (`unknown=yes`):
 * said, in the words `trajscope lint` refuses the same flag with, rather than dropped unseen; the files
 * are read without them. One click takes them off the link.
 */
export function RefusedOptionsNotice() {
  const { refused } = useReadOptions();
  if (refused.length === 0) return null;
  const off = Object.fromEntries(refused.map((r) => [r.option, false]));
  return (
    <Notice tone="warning">
      <span>
        Not applied from this link: {refused.map((r) => r.problem).join('; ')}. The files are read without{' '}
        {refused.length === 1 ? 'it' : 'them'}.{' '}
      </span>
      <button type="button" className="link-button" onClick={() => readWith(off)}>
        Remove from the link
      </button>
    </Notice>
  );
}
