#
# Varnish 7 in front of Chorus (docs/deployment.md). Needs varnish-modules for vmod_xkey
# (Debian: apt-get install varnish varnish-modules).
#
# The site-specific part (backends, purge ACL, purge secret) is generated into chorus-backends.vcl by
#   node deploy/varnish/backends.ts --backends 10.0.0.2:3000 [--purgers 10.0.0.0/24] [--purge-secret S] \
#     > /etc/varnish/chorus-backends.vcl
# and found through varnishd's vcl_path (default /etc/varnish), next to this file.
#
# What it does:
# - Storefront answers are kept as Chorus's Cache-Control says (public, max-age=60,
#   stale-while-revalidate=300: 60 s fresh, 300 s grace) and dropped as soon as the data they read
#   changes: Chorus sends every cacheable answer's content scopes as `xkey` tags, and purges the tags
#   of every commit with `PURGE` + `xkey-purge` (server/http/cache-purge.ts, CACHE_PURGE_URLS).
# - Requests with Authorization (enterprise Basic, loyalty Bearer) or, outside the storefront API,
#   cookies (admin sessions) go to Chorus uncached: an answer for one credential is never stored.
# - Compression: Varnish stores JSON and HTML over 1 KB gzipped and gunzips for clients that do not
#   accept gzip; `Vary: Accept-Encoding` as Chorus sends it.
# - X-Cache on every answer: HIT, MISS or PASS.
#
vcl 4.1;

import std;
import directors;
import xkey;

# Every Chorus node is asked for /healthz each second; two failures among the last three mark it
# sick (about 2 s after it stops), and Varnish then answers 503 at once instead of waiting on it.
probe chorus_healthz {
    .url = "/healthz";
    .expected_response = 200;
    .interval = 1s;
    .timeout = 1s;
    .window = 3;
    .threshold = 2;
    .initial = 2;
}

# Generated: backend chorus_1 { ... .probe = chorus_healthz; } ...; the round-robin director
# `chorus_nodes` over them (vcl_init); acl chorus_purgers; sub chorus_purge_check (403 unless allowed).
include "chorus-backends.vcl";

sub vcl_recv {
    if (req.method == "PURGE") {
        # Invalidation by Chorus: `xkey-purge: <tag> <tag> ...` (tags separated by spaces). A hard
        # purge: the changed answers are gone, the next request fetches the new one. (A soft purge would
        # keep them in grace, and with stale-while-revalidate=300 the next client would be served the
        # old answer once more.)
        call chorus_purge_check;
        if (!req.http.xkey-purge) {
            return (synth(400, "PURGE needs an xkey-purge header"));
        }
        set req.http.x-purged = xkey.purge(req.http.xkey-purge);
        return (synth(200, "Purged " + req.http.x-purged));
    }
    set req.backend_hint = chorus_nodes.backend();
    if (req.method != "GET" && req.method != "HEAD") {
        # Writes, CORS preflights, uploads: straight to Chorus (request bodies streamed).
        return (pass);
    }
    if (req.http.Authorization) {
        # Enterprise (Basic) and loyalty customer (Bearer) answers: per credential, never shared.
        # Chorus's own response cache keeps them per credential (server/http/app.ts).
        return (pass);
    }
    if (req.http.okendo-api-version && req.http.okendo-api-version != "2025-02-01") {
        # An Okendo API version Chorus does not speak: Chorus answers 400 (docs/api.md "Okendo's api-version
        # header"), never a cached answer.
        return (pass);
    }
    if (req.url ~ "^/(v1|widgets|assets|media)/") {
        # The storefront API and static files read no cookie on GET (a cookie of the admin sent
        # along on the same domain would only split the cache).
        unset req.http.Cookie;
    }
    if (req.http.Cookie) {
        # Admin pages and everything else that may read a session.
        return (pass);
    }
    return (hash);
}

sub vcl_backend_response {
    if (!beresp.http.Cache-Control && !beresp.http.Expires) {
        # Chorus said nothing about caching: not stored (Varnish's default would keep it 120 s).
        set beresp.ttl = 120s;
        set beresp.uncacheable = true;
        return (deliver);
    }
    if (!bereq.uncacheable && !beresp.http.Content-Encoding
        && beresp.http.Content-Type ~ "^(application/json|text/html|text/plain|text/css|text/javascript|application/javascript)"
        && std.integer(beresp.http.Content-Length, 0) > 1024) {
        # Stored gzipped once; clients without gzip get it gunzipped (http_gzip_support). Small answers
        # stay identity, as Chorus sends them (server/http/encoding.ts).
        set beresp.do_gzip = true;
    }
    if (beresp.status == 200 && beresp.http.ETag) {
        # Kept past grace for conditional fetches: Chorus answers 304 when the answer did not change.
        set beresp.keep = 10m;
    }
}

sub vcl_deliver {
    # The tags are for vmod_xkey only (read when the object is stored); clients never see them.
    unset resp.http.xkey;
    if (obj.uncacheable) {
        set resp.http.X-Cache = "PASS";
    } else if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
}

sub vcl_backend_error {
    # A node that stopped answering before its probes marked it sick: a read (GET/HEAD, safe to repeat) is
    # fetched once more, and the round-robin director hands the retry to the next node.
    if (bereq.retries == 0 && (bereq.method == "GET" || bereq.method == "HEAD")) {
        return (retry);
    }
    # No healthy node (or it failed mid-answer): a JSON error like Chorus's own, never the HTML page.
    set beresp.http.Content-Type = "application/json; charset=utf-8";
    set beresp.http.Cache-Control = "no-store";
    set beresp.http.Retry-After = "5";
    set beresp.body = """{"error":{"description":"The service is unavailable, try again in a few seconds","code":"unavailable"}}""";
    return (deliver);
}

sub vcl_synth {
    if (req.method == "PURGE") {
        set resp.http.Content-Type = "text/plain; charset=utf-8";
        set resp.body = resp.reason + {"
"};
        return (deliver);
    }
}
