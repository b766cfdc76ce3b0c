/* The HTML report's interactive space-time diagram: the SVG inlined, zoomed, panned, queried. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html_interact.h"
#include "pvmmon/errors.h"

/*
 * Self-written rather than a vendored library (d3-zoom, svg-pan-zoom): all it does is
 * change the inlined SVG's viewBox and show Graphviz's own tooltips, which is about 60
 * lines; a library would be ten times that, a licence to carry and a version to keep,
 * for the same result. Nothing is fetched: the report stays one offline folder.
 */
const char graphs__html_interact_style[] =
    "div.st{border:1px solid #eee;margin:.5em 0;overflow:hidden}"
    "div.st svg{display:block;width:100%;height:auto;cursor:grab;user-select:none}"
    "div.st-bar{font-size:.85em;padding:.2em;background:#f8f8f8}"
    "div.st-bar button{min-width:2em;margin-right:.2em}"
    "div.st-tip{position:fixed;display:none;z-index:9;max-width:40em;padding:.3em .5em;"
    "background:#ffffe8;border:1px solid #999;font-size:.8em;pointer-events:none}";

/*
 * For each div.st: the wheel zooms around the pointer (in and out by 1.25), a drag pans,
 * the buttons zoom around the centre or reset. The time range in view is kept in the
 * div's data-from and data-to (ns from the plot's start, unclamped: tests read them) and
 * said in its span.st-range. The plot's time axis is the Graphviz node titled "axis",
 * which spans data-span ns. Hovering an element with a Graphviz tooltip shows it in a
 * div.st-tip; the tooltip moves to data-tip so that the browser's own does not show too.
 */
const char graphs__html_interact_script[] =
    "(function(){"
    "function fmt(ns){var a=Math.abs(ns);return a>=1e9?(ns/1e9).toPrecision(3)+' s':"
    "a>=1e6?(ns/1e6).toPrecision(3)+' ms':a>=1e3?(ns/1e3).toPrecision(3)+' us':"
    "Math.round(ns)+' ns';}"
    "var tip=document.createElement('div');tip.className='st-tip';"
    "document.body.appendChild(tip);"
    "function place(e){tip.style.left=(e.clientX+14)+'px';tip.style.top=(e.clientY+14)+'px';}"
    "document.querySelectorAll('div.st').forEach(function(box){"
    "var svg=box.querySelector('svg'),lab=box.querySelector('.st-range');if(!svg)return;"
    "var span=parseFloat(box.dataset.span),b=svg.viewBox.baseVal;"
    "var full={x:b.x,y:b.y,w:b.width,h:b.height},v={x:b.x,y:b.y,w:b.width,h:b.height};"
    "var ax0=full.x,aw=full.w,drag=null;"
    "svg.querySelectorAll('g.node').forEach(function(g){var t=g.querySelector('title');"
    "var p=g.querySelector('polygon');if(!t||t.textContent!=='axis'||!p)return;"
    "var m=g.parentNode.transform.baseVal.consolidate();m=m?m.matrix:{a:1,e:0};"
    "var r=p.getBBox();ax0=m.a*r.x+m.e;aw=m.a*r.width;});"
    "function show(){svg.setAttribute('viewBox',v.x+' '+v.y+' '+v.w+' '+v.h);"
    "var f=(v.x-ax0)/aw*span,t=(v.x+v.w-ax0)/aw*span;box.dataset.from=f;box.dataset.to=t;"
    "if(lab)lab.textContent='showing '+fmt(Math.max(0,f))+' to '+fmt(Math.min(span,t))+"
    "' of '+fmt(span);}"
    "function clamp(){v.x=Math.min(Math.max(v.x,full.x-v.w/2),full.x+full.w-v.w/2);"
    "v.y=Math.min(Math.max(v.y,full.y-v.h/2),full.y+full.h-v.h/2);}"
    "function zoom(k,px,py){var w=Math.min(full.w,Math.max(full.w/5000,v.w*k));k=w/v.w;"
    "v.x=px-(px-v.x)*k;v.y=py-(py-v.y)*k;v.w=w;v.h*=k;if(w>=full.w){v.x=full.x;v.y=full.y;"
    "v.h=full.h;}clamp();show();}"
    "function at(e){var r=svg.getBoundingClientRect();"
    "return[v.x+(e.clientX-r.left)/r.width*v.w,v.y+(e.clientY-r.top)/r.height*v.h];}"
    "svg.addEventListener('wheel',function(e){e.preventDefault();var p=at(e);"
    "zoom(e.deltaY<0?0.8:1.25,p[0],p[1]);},{passive:false});"
    "svg.addEventListener('mousedown',function(e){if(e.button!==0)return;e.preventDefault();"
    "drag={x:e.clientX,y:e.clientY,vx:v.x,vy:v.y};svg.style.cursor='grabbing';});"
    "window.addEventListener('mousemove',function(e){if(!drag)return;"
    "var r=svg.getBoundingClientRect();v.x=drag.vx-(e.clientX-drag.x)/r.width*v.w;"
    "v.y=drag.vy-(e.clientY-drag.y)/r.height*v.h;clamp();show();});"
    "window.addEventListener('mouseup',function(){drag=null;svg.style.cursor='';});"
    "box.querySelectorAll('button').forEach(function(bt){bt.addEventListener('click',"
    "function(){var z=bt.dataset.z;if(z==='reset'){v={x:full.x,y:full.y,w:full.w,h:full.h};"
    "show();}else zoom(z==='in'?0.5:2,v.x+v.w/2,v.y+v.h/2);});});"
    "svg.addEventListener('mouseover',function(e){var a=e.target.closest('a');"
    "var t=a?a.getAttribute('data-tip'):null;if(a&&t===null){"
    "t=a.getAttribute('xlink:title')||a.getAttribute('title')||'';a.setAttribute('data-tip',t);"
    "a.removeAttribute('xlink:title');a.removeAttribute('title');}"
    "if(!t){tip.style.display='none';return;}tip.textContent=t;tip.style.display='block';"
    "place(e);});"
    "svg.addEventListener('mousemove',function(e){if(tip.style.display==='block')place(e);});"
    "svg.addEventListener('mouseleave',function(){tip.style.display='none';});"
    "show();});})();";

int graphs__html_inline_svg(FILE *out, const char *path, int64_t span_ns, const char *alt)
{
	char *text = NULL, *svg;
	size_t len = 0;
	FILE *in = fopen(path, "r");
	int rc = 0;

	if (!in)
		return pvmmon_error_set(PVMMON_EIO, "report: cannot read %s: %s", path,
		                        strerror(errno));
	{
		FILE *mem = open_memstream(&text, &len);
		char buf[65536];
		size_t n;

		if (!mem) {
			fclose(in);
			return pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
		}
		while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, n, mem);
		if (ferror(in))
			rc = pvmmon_error_set(PVMMON_EIO, "report: cannot read %s", path);
		if (fclose(mem) != 0 && rc == 0)
			rc = pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
	}
	fclose(in);
	if (rc < 0)
		goto out;
	/* Graphviz's XML declaration, doctype and comments are not for an HTML page. */
	svg = text ? strstr(text, "<svg") : NULL;
	if (!svg) {
		rc = pvmmon_error_set(PVMMON_EIO, "report: %s holds no SVG", path);
		goto out;
	}
	fprintf(out, "<div class=st data-span=\"%" PRId64 "\" role=img aria-label=\"", span_ns);
	for (const char *p = alt; *p; p++)
		if (*p != '"' && *p != '<' && *p != '&')
			fputc(*p, out);
	fputs("\"><div class=st-bar><button data-z=in title=\"zoom in\">+</button>"
	      "<button data-z=out title=\"zoom out\">&minus;</button>"
	      "<button data-z=reset>reset</button> <span class=st-range></span> &middot; wheel: "
	      "zoom, drag: pan, hover: details</div>\n",
	      out);
	/* The namespace declarations HTML does not need: no address is left in the page. */
	for (const char *p = svg, *end = strchr(svg, '>'); *p; p++) {
		if (end && p < end && !strncmp(p, " xmlns", 6)) {
			const char *q = strchr(p, '"');

			q = q && q < end ? strchr(q + 1, '"') : NULL;
			if (q && q < end) {
				p = q;
				continue;
			}
		}
		fputc(*p, out);
	}
	fputs("</div>\n", out);
out:
	free(text);
	return rc;
}
