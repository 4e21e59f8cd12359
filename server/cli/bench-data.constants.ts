/** Fixed identifiers of the scale store built by `npm run bench:data` (shared with bench/). */
export const BENCH_STORE_ID = "b3c4d5e6-0000-4000-8000-000000000001";
/** Platform secret of the bench store's loyalty program (bench tokens only; not a real secret). */
export const BENCH_PLATFORM_SECRET = "bench-platform-secret-not-for-production";
