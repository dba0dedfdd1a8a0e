import { MD2Error } from '../MD2Error.js'
import { printable } from '../printable.js'

/**
 * The relative path an archive entry may be written to, `/`-separated, or an `UNSAFE_PATH` error:
 * the name must stay inside the folder it is extracted to whatever system reads it, so `..` segments,
 * absolute paths (`/etc/x`, `\\server\x`), drive letters (`C:x`), NUL and control characters are
 * refused, backslashes counting as separators (Quake II's own paths use them).
 */
export function safeEntryPath(name: string, options: { file?: string } = {}): string {
  const refuse = (why: string): never => {
    throw new MD2Error('UNSAFE_PATH', `entry "${printable(name)}": ${why}; not extracted`, { section: 'archive', file: options.file })
  }
  if (name.length === 0) refuse('the name is empty')
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) refuse('the name holds a control character')
  const slashed = name.replace(/\\/g, '/')
  if (slashed.startsWith('/')) refuse('an absolute path')
  if (/^[A-Za-z]:/.test(slashed)) refuse('a drive letter')
  const segments = slashed.split('/').filter((segment) => segment !== '' && segment !== '.')
  if (segments.some((segment) => segment === '..')) refuse('a ".." segment leaves the folder')
  if (segments.length === 0) refuse('the name is a folder')
  return segments.join('/')
}
