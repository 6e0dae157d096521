/** The page's fixed stylesheet; everything themable reads a custom property set by `themeCss`. */
export const BASE_CSS = `
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
body{margin:0;min-height:100vh;font-family:var(--font);color:var(--text);background:var(--page-bg);line-height:1.5}
main{max-width:40rem;margin:0 auto;padding:2rem 1rem 4rem}
.card{background:rgba(255,255,255,.95);border-radius:var(--radius);padding:1.5rem;box-shadow:0 1px 4px rgba(0,0,0,.15)}
h1{font-size:1.5rem;margin:0 0 1rem}
.step h2{font-size:1.25rem;margin:0 0 .25rem}
h2:focus{outline:none}
.field{margin:1.25rem 0;padding:0;border:0;min-width:0}
.field-label,legend{display:block;font-weight:600;margin-bottom:.25rem;padding:0}
.required{color:#b42318}
.hint,.scale-labels,.attribution{color:#57606a;font-size:.875rem;margin:.25rem 0}
.attribution a{color:inherit}
input:not([type=radio]):not([type=checkbox]):not([type=file]),select,textarea{width:100%;font:inherit;color:inherit;padding:.6rem .75rem;border:1px solid #8c959f;border-radius:var(--radius);background:#fff}
:focus-visible{outline:3px solid var(--primary);outline-offset:2px}
[aria-invalid=true]{border-color:#b42318!important}
.choice{display:flex;align-items:center;gap:.5rem;padding:.5rem .75rem;border:1px solid #d0d7de;border-radius:var(--radius);margin:.375rem 0;cursor:pointer;background:#fff}
.choice img{max-width:6rem;max-height:6rem;border-radius:calc(var(--radius) / 2)}
.scale{display:flex;flex-wrap:wrap;gap:.375rem}
.scale .choice{flex:1 0 2.75rem;justify-content:center;margin:0}
.scale-labels{display:flex;justify-content:space-between}
.field-error{color:#b42318;font-size:.875rem;margin:.25rem 0 0}
.ranking{list-style:none;padding:0;margin:0}
.ranking li{display:flex;align-items:center;gap:.5rem;padding:.375rem .5rem;border:1px solid #d0d7de;border-radius:var(--radius);margin:.375rem 0;background:#fff}
.ranking .rank-label{flex:1}
.ranking button{padding:.25rem .6rem}
.signature-pad{display:block;width:100%;height:10rem;border:1px dashed #8c959f;border-radius:var(--radius);background:#fff;touch-action:none}
.upload-list{margin:.5rem 0;padding-left:1.25rem;font-size:.875rem}
.statement-title{font-weight:600;margin:0}
.payment-amount{font-size:1.25rem;font-weight:600;margin:.25rem 0}
button,.button{font:inherit;cursor:pointer;border-radius:var(--radius);padding:.6rem 1.2rem;border:1px solid var(--primary);background:#fff;color:var(--primary);text-decoration:none;display:inline-block}
button.primary{background:var(--primary);color:var(--button-text)}
button:disabled{opacity:.6;cursor:progress}
.nav{display:flex;gap:.75rem;margin-top:1.5rem}
.nav .forward{margin-left:auto}
.form-error{color:#b42318;margin:1rem 0 0}
.thank-you{position:relative;overflow:hidden;text-align:var(--ty-align,center);background:var(--ty-bg,rgba(255,255,255,.95))}
.thank-you h2{color:var(--ty-heading,inherit);font-size:1.75rem;margin:.5rem 0}
.thank-you h2.ty-small{font-size:1.25rem}
.thank-you h2.ty-large{font-size:2.5rem}
.ty-description{color:var(--ty-description,inherit)}
.ty-backdrop{position:absolute;top:0;right:0;bottom:0;left:0;background-size:cover;background-position:center}
.ty-content{position:relative}
.ty-logo{max-height:4rem;max-width:12rem}
.ty-media img,.ty-media video{max-width:100%;border-radius:var(--radius)}
.ty-media{margin:1rem 0}
.ty-button{background:var(--ty-button-bg,var(--primary));color:var(--ty-button-text,var(--button-text));border-color:transparent;border-radius:var(--ty-button-radius,var(--radius));margin:1rem 0}
.share{list-style:none;display:flex;flex-wrap:wrap;gap:.5rem;justify-content:center;padding:0;margin:1rem 0 0}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
`
  .trim()
  .replace(/\n/g, '');
