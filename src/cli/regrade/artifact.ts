import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { compareDigest } from '../../analysis';
import type { Rollout } from '../../format';
import { relativePathProblem } from '../../format/runIndex/manifest';

/** One file a grader finds in its working directory. */
export interface ArtifactFile {
  name: string;
  text: string;
}

/**
 * The name the stored artifact is written under. A v1 record stores one artifact, the submitted patch
 * text (`grading.artifact`, shared/trajectory-format.md §3): no file names come with it, so the grader
 * gets it as this one file and applies it to its own copy of the task's repository.
 */
const ARTIFACT_FILE = 'artifact.patch';

export type ArtifactOf =
  | { ok: true; files: ArtifactFile[]; digest: string | null }
  | { ok: false; kind: 'no_artifact' | 'digest_mismatch'; message: string };

/** The record's stored artifact as files, exactly as stored; refused when its recorded digest disagrees. */
export function artifactOf(record: Rollout): ArtifactOf {
  const artifact = record.grading?.artifact;
  if (artifact === undefined || artifact === null) return { ok: false, kind: 'no_artifact', message: 'no artifact stored' };
  const recorded = record.grading?.artifact_digest ?? null;
  const computed = createHash('sha256').update(artifact, 'utf8').digest('hex');
  const cmp = compareDigest(recorded, computed);
  // Grading text other than what the record says was graded would compare two different submissions.
  if (cmp.status === 'mismatch')
    return {
      ok: false,
      kind: 'digest_mismatch',
      message: `artifact_digest sha256:${cmp.recorded} is not the stored artifact's sha256:${cmp.computed}`,
    };
  return { ok: true, files: [{ name: ARTIFACT_FILE, text: artifact }], digest: `sha256:${computed}` };
}

/** A name from data that would leave the grader's directory; nothing of the artifact is written. */
export class UnsafeArtifactName extends Error {}

/**
 * Writes the files into `dir` (a fresh directory of the caller's), every name checked first with the run
 * index's rule for paths from data (relative, plain parts, no `..`): a name is refused before anything is
 * written. Directories are made part by part and a part that exists as anything but a directory (a link)
 * is refused; files are created exclusively without following a link (O_EXCL | O_NOFOLLOW).
 */
export async function writeArtifactFiles(dir: string, files: readonly ArtifactFile[]): Promise<void> {
  for (const f of files) {
    const why = relativePathProblem(f.name);
    if (why)
      throw new UnsafeArtifactName(
        `artifact file name ${JSON.stringify(f.name)} ${why.replace('the index folder', 'the grader directory')}`,
      );
  }
  for (const f of files) {
    const parts = f.name.split('/');
    let at = dir;
    for (const part of parts.slice(0, -1)) {
      at = join(at, part);
      const s = await lstat(at).catch(() => null);
      if (s === null) await mkdir(at);
      else if (!s.isDirectory())
        throw new UnsafeArtifactName(`artifact file name ${JSON.stringify(f.name)} passes through a non-directory`);
    }
    const handle = await open(join(dir, f.name), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      await handle.writeFile(f.text, 'utf8');
    } finally {
      await handle.close();
    }
  }
}
