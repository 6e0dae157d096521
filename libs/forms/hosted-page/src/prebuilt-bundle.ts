/** The bundle the build writes beside the compiled lib (`dist/`), and production reads. */
export const PREBUILT_BUNDLE = 'form.bundle.js';
