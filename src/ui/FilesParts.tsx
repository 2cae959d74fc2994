import { useCallback } from 'react';
import { type FilesDataSource, useNotice, useUiActions, type View } from '../state';
import { ReadWithMapping } from './formats/ReadWithMapping';
import { DropOverlay } from './open/DropOverlay';
import { useFileDrop } from './open/useFileDrop';
import { Notice } from './shared/Notice';
import { useOpenFiles } from './shared/useOpenFiles';
import { LoadFailed } from './source/LoadFailed';
import { LoadingStrip } from './source/LoadingStrip';
import { LoadingView } from './source/LoadingView';
import { MissingFiles, MissingFilesNotice } from './source/MissingFiles';
import { RefusedOptionsNotice } from './source/RefusedOptionsNotice';
import { WaitingForFiles } from './source/WaitingForFiles';

/*
 * The shell's parts that only files have (App.tsx places them by the source's kind): what was skipped or
 * is missing, the read's progress, the field-mapping offer, why nothing shows yet, and the drop target.
 */

/** Above the page: a notice (a skipped drop), files to reopen, the read going on, the offer to read by a mapping. */
export function FilesNotices({ source, view }: { source: FilesDataSource; view: View }) {
  const notice = useNotice();
  const { setNotice } = useUiActions();
  const { sources, missing, hasData, refreshing } = source;
  return (
    <>
      {notice && <Notice onDismiss={() => setNotice(null)}>{notice}</Notice>}
      {missing.length > 0 && sources.length > 0 && <MissingFilesNotice missing={missing} />}
      <RefusedOptionsNotice />
      {hasData && refreshing && <LoadingStrip sources={sources} />}
      {hasData && !refreshing && view === 'list' && <ReadWithMapping sources={sources} />}
    </>
  );
}

/** In place of the page until the first rows are read. */
export function FilesStatus({ source }: { source: FilesDataSource }) {
  switch (source.status) {
    case 'waiting':
      return <WaitingForFiles />;
    case 'missing':
      return <MissingFiles missing={source.missing} />;
    case 'failed':
      return source.error && <LoadFailed error={source.error} isDemo={source.isDemo} />;
    case 'loading':
      return <LoadingView sources={source.sources} />;
    default: // pending: asking whether `trajscope view` serves files
      return <div className="placeholder" aria-busy="true" />;
  }
}

/** Files dropped anywhere on the page open, as the Open button's do. */
export function FileDrop() {
  const open = useOpenFiles();
  const dragging = useFileDrop(useCallback((files: File[]) => open(files, { fromDrop: true }), [open]));
  return dragging && <DropOverlay />;
}
