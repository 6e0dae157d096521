/** The site's own stylesheet: readable prose, tables and code, visible focus, room for the API reference, and method badges dark enough for their white text. */
export const DOCS_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:1rem;line-height:1.6;color:#1f2328;background:#fff}
a{color:#0b57b5;text-underline-offset:.15em}
a:hover{color:#073f82}
:focus-visible{outline:3px solid #0b57b5;outline-offset:2px}
.skip-link{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem;z-index:10}
.skip-link:focus{left:1rem}
.site-header{border-bottom:1px solid #d0d7de;background:#f6f8fa}
.site-header-inner{max-width:72rem;margin:0 auto;padding:.75rem 1.25rem;display:flex;flex-wrap:wrap;align-items:baseline;gap:.5rem 1.5rem}
.site-name{font-weight:700;font-size:1.1rem;color:#1f2328;text-decoration:none}
.site-nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.site-nav a{text-decoration:none;color:#1f2328;padding:.125rem 0;border-bottom:2px solid transparent}
.site-nav a:hover{border-bottom-color:#8c959f}
.site-nav a[aria-current=page]{border-bottom-color:#0b57b5;font-weight:600}
body>main{max-width:50rem;margin:0 auto;padding:1.5rem 1.25rem 4rem}
body>main.wide{max-width:72rem}
h1{font-size:2rem;line-height:1.25;margin:.5rem 0 1rem}
.prose h2{font-size:1.4rem;line-height:1.3;margin:2.25rem 0 .75rem;padding-bottom:.25rem;border-bottom:1px solid #d8dee4}
.prose h3{font-size:1.1rem;margin:1.5rem 0 .5rem}
.lead{font-size:1.15rem;color:#3d444d}
.prose code,.site-footer code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.9em;background:#f3f4f6;border-radius:4px;padding:.1em .3em;overflow-wrap:break-word}
.prose pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.85rem 1rem;overflow-x:auto;line-height:1.45}
.prose pre code{background:none;padding:0;font-size:.875rem;overflow-wrap:normal}
.prose pre.wrap{white-space:pre-wrap}
.prose code.path{white-space:nowrap}
.prose pre.wrap code{overflow-wrap:anywhere}
.prose table{border-collapse:collapse;width:100%;margin:1rem 0;font-size:.95rem}
.prose th,.prose td{border:1px solid #d0d7de;padding:.4rem .6rem;text-align:left;vertical-align:top}
.prose th{background:#f6f8fa}
.note{border-left:4px solid #bf8700;background:#fff8e5;padding:.75rem 1rem;margin:1.25rem 0;border-radius:0 6px 6px 0}
.note>:first-child{margin-top:0}.note>:last-child{margin-bottom:0}
.cards{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:1rem}
.cards li{border:1px solid #d0d7de;border-radius:8px;padding:1rem}
.cards a{font-weight:600}
.cards p{margin:.35rem 0 0;color:#3d444d;font-size:.95rem}
.site-footer{border-top:1px solid #d0d7de;color:#57606a;font-size:.875rem}
.site-footer p{max-width:72rem;margin:0 auto;padding:1rem 1.25rem}
.reference-intro{margin-bottom:0}
#api-reference{min-height:20rem}
#api-reference .swagger-ui .info{margin:1.5rem 0}
#api-reference .opblock-get .opblock-summary-method{background:#1f6fc5}
#api-reference .opblock-post .opblock-summary-method{background:#187a4d}
#api-reference .opblock-put .opblock-summary-method{background:#a35400}
#api-reference .opblock-patch .opblock-summary-method{background:#127f6f}
#api-reference .opblock-delete .opblock-summary-method{background:#c62828}
@media (max-width:40rem){#api-reference .opblock-summary-operation-id{display:none}}
`;

/** Starts Swagger UI on the reference page: our document (read from the page), offline (no validator badge), no query-string configuration. */
export const REFERENCE_INIT_JS = `'use strict';
(function () {
  var root = document.getElementById('api-reference');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-openapi-url'),
    domNode: root,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayOperationId: true,
    showExtensions: true,
    filter: true,
    validatorUrl: null,
    queryConfigEnabled: false,
    tryItOutEnabled: false,
    persistAuthorization: false
  });
})();
`;
