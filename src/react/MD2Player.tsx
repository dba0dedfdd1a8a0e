import { Children, Suspense, forwardRef, useMemo, type ReactNode } from 'react'
import type { Group } from 'three'
import { MD2Error } from '../core/MD2Error.js'
import { warnOnce } from '../core/warnOnce.js'
import { MD2Model, type MD2ModelProps } from './MD2Model.js'
import { isLookElement } from './MD2ModelContext.js'
import { checkProps } from './checkProps.js'
import { fileIn, folderUrl, useFolderModel } from './loading/playerFiles.js'
import { useArchiveUrl } from './loading/useArchiveUrl.js'
import { useMD2 } from './loading/useMD2.js'
import { useReport } from './loading/useReport.js'

// Bundlers replace `process.env.NODE_ENV` with a string, as React and R3F need them to: production builds leave
// the checks of props, and their code, out (the test is written out at each call: a minifier folds it only there).
declare const process: { env: { NODE_ENV?: string } }

/** What the body and its weapon share of `<MD2Model>`'s look (Quake II draws the weapon with the body's flags). */
const LOOK_PROPS = ['opacity', 'wireframe', 'color', 'material', 'castShadow', 'receiveShadow'] as const
type LookProps = Pick<MD2ModelProps, (typeof LOOK_PROPS)[number]>

export interface MD2PlayerProps extends Omit<MD2ModelProps, 'url' | 'model' | 'skin' | 'sync' | 'tags' | 'children'> {
  /** The player's folder, as Quake II keeps it: `/players/ogro/` holds `tris.md2`, skins and weapons. */
  path: string
  /** A skin in the folder, by name without extension: `"igdosh"` shows `igdosh.pcx`. Default: the first skin the model names. */
  skin?: string
  /**
   * The weapon in the player's hand, drawn with the body's frames: `"railgun"` (or `"w_railgun"`) loads
   * `w_railgun.md2`, and, as Quake II falls back, `weapon.md2` (with `weapon.pcx`) when the folder lacks
   * it. A weapon found nowhere warns once and the body is drawn alone. Default: none.
   */
  weapon?: string | null
  /**
   * The folder's file names, when known (a build-time listing): names are then matched
   * case-insensitively, as Quake II's file system does, with no probing. Without it each file is
   * tried in its likely spellings (`tris.md2`, `tris.MD2`, `TRIS.MD2`) until one loads.
   */
  files?: readonly string[]
  /**
   * The weapon drawn when the folder has neither `w_<weapon>.md2` nor `weapon.md2`: Quake II's base
   * (male) weapon. Default: `male/weapon.md2` beside the player's folder (`/players/male/weapon.md2` for
   * `/players/ogro/`); a URL names another; `null` draws none.
   */
  fallbackWeapon?: string | null
  /** The weapon could not be loaded (the body is drawn alone), and why. */
  onWeaponError?: (error: MD2Error) => void
  /**
   * Drawn in the body's space, as `<MD2Model>`'s children. The looks among them (`<MD2Shell>`,
   * `<MD2BlobShadow>`, `<MD2Quake2Lighting>`, `<MD2PoseBounds>`) dress the body and the weapon alike, as
   * Quake II draws the weapon with the player's flags.
   */
  children?: ReactNode
}

/**
 * A Quake II player from its folder: the body (`tris.md2`), a skin by name, and the weapon in its hand
 * (`w_<weapon>.md2`, else `weapon.md2`), synced to the body's frames, interpolation and crossfade. Takes
 * `<MD2Model>`'s animation props, its `controller` (`usePlayerAnimation()`: Quake II's player rules) and
 * its looks as children, which dress the body and the weapon; the ref is the body's root group. File names are found
 * whatever their case on the server (real player folders ship `tris.MD2`, `w_railgun.MD2`). The skin's
 * HUD icon (`<skin>_i.pcx`) comes from `usePlayerIcon`.
 */
export const MD2Player = forwardRef<Group, MD2PlayerProps>(function MD2Player(
  { path, skin, weapon, files, fallbackWeapon, onWeaponError, children, ...props },
  ref,
) {
  if (process.env.NODE_ENV !== 'production') checkProps('MD2Player', props)
  const folder = useArchiveUrl(folderUrl(path))
  const fallbackUrl = useArchiveUrl(fallbackWeapon ?? undefined)
  const bodyUrl = useFolderModel({ url: folder, names: ['tris.md2'], files })
  if (bodyUrl instanceof MD2Error) throw bodyUrl
  const body = useMD2(bodyUrl)
  const look: LookProps = {}
  for (const key of LOOK_PROPS) if (props[key] !== undefined) (look as Record<string, unknown>)[key] = props[key]
  // The weapon wears the player's looks: the same elements, drawn again from the weapon's pose.
  const looks = Children.toArray(children).filter(isLookElement)
  return (
    <MD2Model ref={ref} model={body} files={files} skin={skin === undefined ? undefined : fileIn(files, `${skin}.pcx`)} {...props}>
      {weapon ? (
        <Suspense fallback={null}>
          <PlayerWeapon
            folder={folder}
            weapon={weapon}
            files={files}
            fallback={fallbackWeapon === undefined ? maleWeaponOf(folder) : fallbackWeapon === null ? undefined : fallbackUrl}
            look={look}
            looks={looks}
            onError={onWeaponError}
          />
        </Suspense>
      ) : null}
      {children}
    </MD2Model>
  )
})

/** Quake II's base weapon for a player folder: `male/weapon.md2` beside it (none for the male himself). */
function maleWeaponOf(folder: string): string | undefined {
  const parent = folder.replace(/[^/]+\/$/, '')
  return `${parent}male/` === folder ? undefined : `${parent}male/weapon.md2`
}

function PlayerWeapon({
  folder,
  weapon,
  files,
  fallback,
  look,
  looks,
  onError,
}: {
  folder: string
  weapon: string
  files: readonly string[] | undefined
  /** The base weapon's URL, tried when the folder has neither file. */
  fallback: string | undefined
  look: LookProps
  looks: ReactNode[]
  onError: ((error: MD2Error) => void) | undefined
}) {
  const name = weapon.replace(/\.md2$/i, '')
  const specific = `${name.startsWith('w_') ? name : `w_${name}`}.md2`
  const weaponFound = useFolderModel({ url: folder, names: [specific, 'weapon.md2'], files })
  // As Quake II falls back: the folder's own weapon, else the base (male) weapon.
  const fallbackFound = useFolderModel(
    weaponFound instanceof MD2Error && fallback !== undefined
      ? { url: folderOf(fallback), names: [fileOf(fallback)], files: undefined }
      : undefined,
  )
  const shown = weaponFound instanceof MD2Error ? (fallbackFound ?? weaponFound) : weaponFound
  const error = useMemo(
    () =>
      fallbackFound instanceof MD2Error && weaponFound instanceof MD2Error
        ? new MD2Error('LOAD_FAILED', `${weaponFound.reason}; and the base weapon: ${fallbackFound.reason}`, { file: folder })
        : shown instanceof MD2Error
          ? shown
          : undefined,
    [weaponFound, fallbackFound, shown, folder],
  )
  useReport(error, onError)
  if (error) {
    warnOnce(`player-weapon:${folder}:${specific}`, `${error.message}; drawing the body alone`)
    return null
  }
  const url = shown as string
  return <WeaponModel url={url} files={url.startsWith(folder) ? files : undefined} look={look} looks={looks} />
}

function folderOf(url: string): string {
  return url.slice(0, url.lastIndexOf('/') + 1)
}

function fileOf(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1)
}

/** A found weapon, drawn with the body's frames and dressed in the player's looks. */
function WeaponModel({
  url,
  files,
  look,
  looks,
}: {
  url: string
  files: readonly string[] | undefined
  look: LookProps
  looks: ReactNode[]
}) {
  const model = useMD2(url)
  // weapon.md2 goes with weapon.pcx; a w_ model names its own skin (g_rail.pcx…).
  const skin = model.skins.length > 0 ? undefined : fileIn(files, 'weapon.pcx')
  return (
    <MD2Model model={model} sync skin={skin} name={url} {...look}>
      {looks}
    </MD2Model>
  )
}
