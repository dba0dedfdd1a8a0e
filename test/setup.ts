// @react-three/test-renderer drives React's act(); tell React it runs in a test.
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

// Node has fetch and ReadableStream but no ProgressEvent, which three's FileLoader creates while
// streaming a download. Browsers and workers have it; give the Node test environment a minimal one.
if (typeof globalThis.ProgressEvent === 'undefined') {
  class NodeProgressEvent extends Event {
    readonly lengthComputable: boolean
    readonly loaded: number
    readonly total: number
    constructor(type: string, init: { lengthComputable?: boolean; loaded?: number; total?: number } = {}) {
      super(type)
      this.lengthComputable = init.lengthComputable ?? false
      this.loaded = init.loaded ?? 0
      this.total = init.total ?? 0
    }
  }
  ;(globalThis as { ProgressEvent?: unknown }).ProgressEvent = NodeProgressEvent
}
