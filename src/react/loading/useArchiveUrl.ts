import { createContext, useContext } from 'react'
import { hasUrlScheme } from '../../core/images/skinPaths.js'

/**
 * The URL the files of the enclosing `<MD2Archive>` are addressed under (`…/pak0.pak/`), undefined
 * outside any. Only a URL: the archive reader stays with `<MD2Archive>`, out of apps that use none.
 */
export const ArchiveBase = createContext<string | undefined>(undefined)

/**
 * `url` as loaders should fetch it: inside the enclosing `<MD2Archive>` when it is relative (no scheme,
 * no leading `/`), as given otherwise or outside any archive. A URL already inside the archive is kept.
 */
export function useArchiveUrl<T extends string | undefined>(url: T): T {
  const base = useContext(ArchiveBase)
  if (base === undefined || typeof url !== 'string' || url === '' || url.startsWith('/') || hasUrlScheme(url) || url.startsWith(base))
    return url
  return (base + url.replace(/\\/g, '/')) as T
}
