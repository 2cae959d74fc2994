import { isTrajectoryFileName } from '../adapters/formatInfo';
import { formatCount, plural } from '../counting';
import { findTrials } from './harborJob';
import { type DirectoryLayout, LAYOUT_INFO, type ReadFile, type TraceDirectory, type TraceUnit } from './layouts';
import { findConversations } from './openHandsConversation';
import { findTau2Runs } from './tau2Results';

const LAYOUTS = Object.keys(LAYOUT_INFO) as DirectoryLayout[];

/** Whether folder `inner` lies inside folder `outer` (not the same folder). */
function inside(inner: string, outer: string): boolean {
  return inner !== outer && (outer === '' || inner.startsWith(`${outer}/`));
}

/**
 * Which trace layouts a directory holds, from its listing: every file's path relative to the directory,
 * '/'-separated (a folder of any depth may be a conversation, a trial or a run, so a folder of many is read
 * whole). Names decide, except for tau2's `results.json`, which is read (through `read`) to tell it from
 * another tool's. A trace found inside another's folder (an agent's own logs inside a Harbor trial) is part
 * of that one, not read again. Null when the directory holds none.
 */
export async function detectTraceDirectory(files: readonly string[], read: ReadFile): Promise<TraceDirectory | null> {
  const found: TraceUnit[] = [...findConversations(files), ...findTrials(files), ...(await findTau2Runs(files, read))];
  const units = found
    .filter((u) => !found.some((o) => inside(u.root, o.root)))
    .sort((a, b) => (a.root < b.root ? -1 : a.root > b.root ? 1 : LAYOUTS.indexOf(a.layout) - LAYOUTS.indexOf(b.layout)));
  if (units.length === 0) return null;
  return { layouts: LAYOUTS.filter((l) => units.some((u) => u.layout === l)), units };
}

/** How many names a description lists before "…". */
const SHOWN = 3;

function sample(paths: readonly string[]): string {
  return paths.slice(0, SHOWN).join(', ') + (paths.length > SHOWN ? ', …' : '');
}

/**
 * What a directory holding no trace layout holds, in one line (`lint DIR` says it and exits 2): how many
 * files, which of them have a trajectory file's ending (those can be named one by one), the symbolic links
 * not followed, and the layouts that were looked for.
 */
export function describeDirectory(files: readonly string[], linksNotFollowed = 0): string {
  const links = linksNotFollowed > 0 ? `; ${plural(linksNotFollowed, 'symbolic link')} not followed` : '';
  const known = `known layouts: ${LAYOUTS.map((l) => `${LAYOUT_INFO[l].label.replace(/^an? /, '')} (${LAYOUT_INFO[l].files})`).join(', ')}`;
  if (files.length === 0) return `an empty directory${links}: no trajectory file, no trace layout (${known})`;
  const trajectoryFiles = files.filter((f) => isTrajectoryFileName(f));
  const what = `a directory of ${plural(files.length, 'file')}`;
  if (trajectoryFiles.length === 0)
    return `${what} (${sample(files)})${links}: none is a trajectory file or a known trace layout (${known})`;
  const some = trajectoryFiles.length === files.length ? 'all' : `${formatCount(trajectoryFiles.length)} of them`;
  return `${what}, ${some} with a trajectory file's ending (${sample(trajectoryFiles)})${links}, but no known trace layout (${known}): name the files to read them`;
}
