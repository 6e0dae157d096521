/** The page's fixed stylesheet; everything themable reads a custom property set by `themeCss`. */
export const BASE_CSS = `
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
body{--tint:color-mix(in srgb,var(--primary) 8%,#fff);margin:0;min-height:100vh;font-family:var(--font);color:var(--text);background:var(--page-bg);line-height:1.5}
main{max-width:40rem;margin:0 auto;padding:2rem 1rem 4rem}
.card{background:#fff;border:1px solid rgba(0,0,0,.06);border-radius:var(--radius);padding:1.5rem;box-shadow:0 1px 2px rgba(0,0,0,.06),0 12px 32px -8px rgba(0,0,0,.18)}
h1{font-size:1.5rem;margin:0 0 1rem}
.step h2{font-size:1.25rem;margin:0 0 .25rem}
h2:focus{outline:none}
.field{margin:1.25rem 0;padding:0;border:0;min-width:0}
.field-label,legend{display:block;font-weight:600;margin-bottom:.25rem;padding:0}
.required{color:#b42318}
.hint,.scale-labels,.attribution{color:#57606a;font-size:.875rem;margin:.25rem 0}
.attribution a{color:inherit}
.thank-you .attribution{color:var(--ty-description,#57606a);font-size:.75rem;margin-top:1.25rem}
input:not([type=radio]):not([type=checkbox]):not([type=file]),select,textarea{width:100%;font:inherit;color:inherit;padding:.6rem .75rem;border:1px solid #8c959f;border-radius:var(--radius);background:#fff}
:focus-visible{outline:3px solid var(--primary);outline-offset:2px}
[aria-invalid=true]{border-color:#b42318!important}
.choice{position:relative;display:flex;align-items:center;gap:.625rem;padding:.75rem .875rem;border:1px solid #d0d7de;border-radius:var(--radius);margin:.5rem 0;cursor:pointer;background:#fff;transition:border-color .15s,background-color .15s}
.choice:hover{border-color:var(--primary)}
.choice:has(input:checked){border-color:var(--primary);background:var(--tint);box-shadow:inset 0 0 0 1px var(--primary)}
.choice:has(:focus-visible){outline:3px solid var(--primary);outline-offset:2px}
.choice input:focus-visible{outline:none}
input[type=radio],input[type=checkbox]{accent-color:var(--primary);width:1.125rem;height:1.125rem;margin:0;flex:none}
.choice img{max-width:6rem;max-height:6rem;border-radius:calc(var(--radius) / 2)}
.choices-images{display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:.5rem}
.choices-images .choice{flex-direction:column;align-items:stretch;margin:0}
.choices-images .choice img{max-width:100%;max-height:8rem;object-fit:cover}
.scale{display:grid;grid-template-columns:repeat(var(--count),minmax(0,1fr));gap:.375rem}
.scale .choice,.rating .choice{justify-content:center;margin:0;font-weight:600;font-variant-numeric:tabular-nums}
.scale .choice{padding:.75rem 0}
.scale input,.rating input{position:absolute;opacity:0;width:1px;height:1px;pointer-events:none}
.scale .choice:has(input:checked){background:var(--primary);color:var(--button-text)}
.scale-labels{display:flex;justify-content:space-between;gap:1rem;margin-top:.5rem}
.scale-labels>span:last-child{text-align:end}
@media (max-width:30rem){.scale{grid-template-columns:repeat(var(--narrow),minmax(0,1fr))}}
.rating{display:flex;gap:.25rem}
.rating .choice{border:0;background:none;padding:.125rem;box-shadow:none;font-size:2.25rem;line-height:1;color:#8c959f}
.rating .choice:has(input:checked){background:none;box-shadow:none}
.rating-star .choice:has(~ .choice input:checked),.rating-star .choice:has(input:checked){color:#d97706}
.rating-heart .choice:has(~ .choice input:checked),.rating-heart .choice:has(input:checked){color:#dc2626}
.rating-thumb .choice{filter:grayscale(1);opacity:.5}
.rating-thumb .choice:has(~ .choice input:checked),.rating-thumb .choice:has(input:checked){filter:none;opacity:1}
.rating:hover .choice{color:#8c959f}
.rating-star:hover .choice:hover,.rating-star:hover .choice:has(~ .choice:hover){color:#f59e0b}
.rating-heart:hover .choice:hover,.rating-heart:hover .choice:has(~ .choice:hover){color:#ef4444}
.dropzone{position:relative;display:flex;flex-direction:column;align-items:center;gap:.25rem;padding:1.5rem 1rem;border:2px dashed #8c959f;border-radius:var(--radius);background:#f6f8fa;text-align:center;transition:border-color .15s,background-color .15s}
.dropzone input{position:absolute;top:0;left:0;width:100%;height:100%;opacity:0;cursor:pointer}
.dropzone:hover,.dropzone.dragging{border-color:var(--primary);background:var(--tint)}
.dropzone:has(:focus-visible){outline:3px solid var(--primary);outline-offset:2px}
.dropzone-icon{font-size:1.5rem;line-height:1;color:var(--primary)}
.dropzone-text strong{color:var(--primary)}
.dropzone .hint{margin:0}
.field-error{color:#b42318;font-size:.875rem;margin:.25rem 0 0}
.ranking{list-style:none;padding:0;margin:0}
.ranking li{display:flex;align-items:center;gap:.5rem;padding:.375rem .5rem;border:1px solid #d0d7de;border-radius:var(--radius);margin:.375rem 0;background:#fff}
.ranking .rank-label{flex:1}
.ranking button{padding:.25rem .6rem}
.signature-pad{display:block;width:100%;height:10rem;border:1px dashed #8c959f;border-radius:var(--radius);background:#fff;touch-action:none}
.upload-list{margin:.5rem 0;padding-inline-start:1.25rem;font-size:.875rem}
.statement-title{font-weight:600;margin:0}
.payment-amount{font-size:1.25rem;font-weight:600;margin:.25rem 0}
.payment-pay{background:var(--primary);color:var(--button-text);margin:.5rem 0}
.payment-checkout:empty{display:none}
.payment-checkout{border:1px solid #d0d7de;border-radius:var(--radius);padding:.75rem;margin:.5rem 0;background:#fff}
.payment-checkout input{display:block;width:100%;box-sizing:border-box;margin-top:.25rem}
[data-paid] .payment-status{color:#1a7f37;font-weight:600}
button,.button{font:inherit;cursor:pointer;border-radius:var(--radius);padding:.6rem 1.2rem;border:1px solid var(--primary);background:#fff;color:var(--primary);text-decoration:none;display:inline-block}
button.primary{background:var(--primary);color:var(--button-text)}
button:disabled{opacity:.6;cursor:progress}
.nav{display:flex;gap:.75rem;margin-top:1.5rem}
.nav .forward{margin-inline-start:auto}
.form-error{color:#b42318;margin:1rem 0 0}
.thank-you{position:relative;overflow:hidden;text-align:var(--ty-align,center);background:var(--ty-bg,#fff)}
.thank-you{padding:2.5rem 1.5rem}
.thank-you h2{color:var(--ty-heading,inherit);font-size:1.75rem;line-height:1.2;margin:.75rem 0}
.thank-you h2.ty-small{font-size:1.25rem}
.thank-you h2.ty-large{font-size:clamp(1.875rem,6vw,2.5rem)}
.thank-you h2:focus{outline:none}
.ty-description{color:var(--ty-description,#57606a);font-size:1.0625rem;margin:0 0 1rem}
.ty-backdrop{position:absolute;top:0;right:0;bottom:0;left:0;background-size:cover;background-position:center}
.ty-content{position:relative}
.ty-logo{max-height:4rem;max-width:12rem}
.ty-media img,.ty-media video{max-width:100%;border-radius:var(--radius)}
.ty-media{margin:1.25rem 0}
.ty-media figcaption{font-size:.75rem;color:var(--ty-description,#57606a);margin-top:.25rem}
.ty-button{background:var(--ty-button-bg,var(--primary));color:var(--ty-button-text,var(--button-text));border-color:transparent;border-radius:var(--ty-button-radius,var(--radius));margin:1rem 0}
.share-title{font-size:.8125rem;font-weight:600;text-transform:uppercase;letter-spacing:.06em;color:var(--ty-description,#57606a);margin:1.5rem 0 .5rem}
.share{list-style:none;display:flex;flex-wrap:wrap;gap:.5rem;justify-content:var(--ty-justify,center);padding:0;margin:0}
.share .button{padding:.45rem 1rem;font-size:.9375rem}
.progress{margin:0 0 1.25rem}
.progress-label{font-size:.8125rem;color:#57606a;margin:0 0 .375rem}
.progress-track{height:.375rem;border-radius:999px;background:#e5e7eb;overflow:hidden}
.progress-bar{height:100%;border-radius:inherit;background:var(--primary);transition:width .3s ease}
@keyframes step-forward{from{opacity:0;transform:translateX(calc(var(--slide) * 1.5rem))}}
@keyframes step-back{from{opacity:0;transform:translateX(calc(var(--slide) * -1.5rem))}}
:root{--slide:1}
[dir=rtl]{--slide:-1}
@media (prefers-reduced-motion:no-preference){.step[data-enter=forward]{animation:step-forward .28s ease-out}.step[data-enter=back]{animation:step-back .28s ease-out}}
@media (prefers-reduced-motion:reduce){.progress-bar{transition:none}}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
`
  .trim()
  .replace(/\n/g, '');
