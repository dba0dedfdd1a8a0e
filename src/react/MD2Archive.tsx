import type { ReactNode } from 'react'
import type { MD2ArchiveFiles, MD2RangeArchive } from '../core/archive/openArchive.js'
import { MD2Error } from '../core/MD2Error.js'
import { baseOfGivenArchive } from '../three/loaders/archiveMounts.js'
import { ArchiveBase } from './loading/useArchiveUrl.js'
import { useMD2Archive } from './loading/useMD2Archive.js'

export interface MD2ArchiveProps {
  /** The archive's URL: fetched by HTTP range requests where the server allows, else whole. */
  url?: string
  /** An archive already open (`openArchive(bytes)`, dropped files), instead of a URL. */
  archive?: MD2ArchiveFiles | MD2RangeArchive
  children?: ReactNode
}

/**
 * Makes relative URLs below it (`<MD2Model url>`, skins, tags, `<MD2Player path>`, `useMD2`) resolve
 * inside an archive, in any case: `<MD2Archive url="pak0.pak"><MD2Model url="models/monsters/tank/tris.md2" /></MD2Archive>`.
 * Skins a model names, player weapons and icons follow, because they are looked for next to the model.
 * Suspends while the archive's directory loads; a damaged archive throws its `MD2Error` to the boundary.
 */
export function MD2Archive({ url, archive, children }: MD2ArchiveProps) {
  if (url === undefined && archive === undefined) throw new MD2Error('BAD_ARGUMENT', '<MD2Archive> needs a `url` or an `archive`')
  return archive ? (
    <ArchiveBase.Provider value={baseOfGivenArchive(archive)}>{children}</ArchiveBase.Provider>
  ) : (
    <LoadedArchive url={url!}>{children}</LoadedArchive>
  )
}

function LoadedArchive({ url, children }: { url: string; children?: ReactNode }) {
  const archive = useMD2Archive(url)
  return <ArchiveBase.Provider value={archive.base}>{children}</ArchiveBase.Provider>
}
