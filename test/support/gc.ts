import v8 from 'node:v8'
import vm from 'node:vm'

/** How many of `refs` the garbage collector frees (Node's gc, enabled at run time). */
export async function collected(refs: WeakRef<object>[]): Promise<number> {
  v8.setFlagsFromString('--expose-gc')
  const gc = vm.runInNewContext('gc') as () => void
  for (let i = 0; i < 5 && refs.some((ref) => ref.deref() !== undefined); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10))
    gc()
  }
  return refs.filter((ref) => ref.deref() === undefined).length
}
