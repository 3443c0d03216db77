/*
 * grammar.h - what the files of grammar/ share, in pipeline order:
 * scan.c finds `#pragma kt` blocks and the kernel after each, lex.c cuts one
 * pragma line into tokens, expr.c parses expressions, parse.c parses the
 * directives of a block into a kt_model, build.c resolves names, checks the
 * model and computes dependencies, template.c ties it together.
 *
 * The one design choice: everything one parse makes lives in one arena, and
 * running out of memory unwinds with longjmp to kt_template_parse (Lua's way
 * of raising errors), so no parse function needs an allocation-failure path
 * and nothing can leak, because nothing lives outside the arena.
 */
#ifndef KTC_GRAMMAR_GRAMMAR_H
#define KTC_GRAMMAR_GRAMMAR_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktc/model.h"
#include "util/arena.h"

/* Limits that keep hostile input from exhausting memory or the stack. */
enum {
	GRAM_MAX_DEPTH = 200,  /* nesting of expressions */
	GRAM_MAX_NODES = 4096, /* nodes of one expression (bounds its depth) */
	GRAM_MAX_DOMAIN = 1 << 16, /* values of one parameter or problem */
};

/* The state of one kt_template_parse call. */
typedef struct gram {
	kt_arena *arena;
	kt_diags *diags;
	const char *file; /* arena copy of the path */
	const char *text; /* arena copy of the source */
	size_t textlen;
	size_t *lines; /* offset of each line's first byte */
	size_t nlines;
	jmp_buf oom;         /* where an allocation failure unwinds to */
	bool listed_devices; /* the known DEVICE_* names were shown once */
} gram;

/* Allocation that cannot fail from the caller's view (see above). */
void *gram_alloc(gram *g, size_t n);
char *gram_strndup(gram *g, const char *s, size_t n);
char *gram_printf(gram *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Grows an arena array to hold need items of elem bytes (doubling). */
void gram_grow(gram *g, void **items, size_t *cap, size_t need, size_t elem);
#define GRAM_PUSH(g, arr, n, cap, x)                                           \
	(gram_grow((g), (void **)&(arr), &(cap), (n) + 1, sizeof(*(arr))),     \
	 (arr)[(n)++] = (x))

/* Fills g->lines from g->text. */
void gram_index_lines(gram *g);
kt_loc gram_loc(const gram *g, size_t off);
/* A diagnostic at byte offset off spanning len bytes (clipped to the line). */
void gram_diag(gram *g, kt_severity sev, size_t off, size_t len,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void gram_vdiag(gram *g, kt_severity sev, size_t off, size_t len,
                const char *fmt, va_list ap);
/* A diagnostic at a location already resolved. */
void gram_diag_at(gram *g, kt_severity sev, kt_loc loc, int len,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The candidate closest to name (edit distance), or NULL if none is close. */
const char *gram_suggest(const char *name, size_t len, const char *const *cands,
                         size_t ncands);

/* --- lex.c: tokens of one directive ---------------------------------- */

typedef enum tok_kind {
	TOK_EOL, /* end of the directive */
	TOK_IDENT,
	TOK_INT,
	TOK_FLOAT,
	TOK_STRING,
	TOK_PUNCT,
	TOK_BAD, /* a character or literal already diagnosed */
} tok_kind;

/* Punctuators; two-character ones get codes above the ASCII range. */
enum {
	P_SHL = 256,
	P_SHR,
	P_LE,
	P_GE,
	P_EQ,
	P_NE,
	P_AND,
	P_OR,
};

typedef struct token {
	tok_kind kind;
	size_t off, len; /* the token's bytes in the file */
	int punct;       /* TOK_PUNCT: the character or P_* */
	int64_t ival;    /* TOK_INT */
	double fval;     /* TOK_FLOAT */
	const char *str; /* TOK_STRING: decoded text (arena) */
} token;

typedef struct lexer {
	gram *g;
	size_t pos;      /* next byte to read */
	size_t end;      /* where the directive ends */
	token tok;       /* the current token */
	size_t prev_end; /* end of the token before tok */
} lexer;

/* Length of a backslash-newline at p, else 0. */
size_t gram_splice_len(const char *text, size_t len, size_t p);
/* End of the comment at p, or p when there is none. */
size_t gram_skip_comment(const char *text, size_t len, size_t p);
/* End of the quoted literal at p (on the quote); stops at a newline. */
size_t gram_skip_quoted(const char *text, size_t len, size_t p);
/* End of the preprocessor directive at off: continuations and comments. */
size_t gram_directive_end(const char *text, size_t len, size_t off);
void lex_init(lexer *lx, gram *g, size_t start, size_t end);
void lex_next(lexer *lx);
bool lex_is(const lexer *lx, int punct);
bool lex_is_ident(const lexer *lx, const char *name);
/* Consumes punct or reports "expected ..."; returns false on error. */
bool lex_expect(lexer *lx, int punct, const char *what);
/* The spelling of the current token for messages ("end of line", "'+'"). */
const char *lex_describe(lexer *lx);

/* --- expr.c ---------------------------------------------------------- */

/* Parses an expression; NULL after a diagnostic. Strings when allowed. */
kt_expr *expr_parse(lexer *lx, bool allow_string);
/* Names of the built-in functions, indexed by kt_func. */
extern const char *const expr_func_names[];
extern const size_t expr_nfuncs;

/* --- parse.c: one block of directives into a model ------------------- */

/* A `#pragma kt` line: where it starts and where its text lies. */
typedef struct pragma_line {
	size_t hash; /* offset of '#' */
	size_t body; /* first byte after "kt" */
	size_t end;  /* end of the directive */
} pragma_line;

/* Parses lines into m (kernel already set); returns true if no error. */
void parse_block(gram *g, kt_model *m, const pragma_line *lines, size_t n);

/* --- build.c: names, checks, dependencies ---------------------------- */

void build_model(gram *g, kt_model *m);

/* --- types.c: element types and their C spellings ------------------ */

/* The type a spelling names ("f32", "float", "unsigned int"), or -1. */
int gram_type_lookup(const char *spelling);
/* The values a type can hold (floats: the finite range). */
void gram_type_range(kt_type t, double *lo, double *hi);
extern const char *const gram_type_spellings[];
extern const size_t gram_ntype_spellings;
/* The DEVICE_* constant called name (n bytes), or -1. */
int gram_device_lookup(const char *name, size_t n);

/* --- scan.c: blocks and kernels of a whole file ---------------------- */

/* Appends one model per annotated kernel to *models. */
void scan_file(gram *g, kt_model **models, size_t *nmodels);
/* Every `#pragma kt` line of the file, in order, each with the kernel its
 * block stands before (arena; kt_template_lines). */
void scan_lines(gram *g, kt_pragma_text **out, size_t *n);
/* Every `#pragma kt` line of the file, in order (arena). */
void scan_pragmas(gram *g, pragma_line **out, size_t *n);
/*
 * The first token spelled name outside comments, strings and `#pragma kt`
 * lines (other directives' tokens count): *use is its offset, *line the
 * start of the line a new line may be inserted before (out of continued
 * lines and block comments). False when there is none.
 */
bool scan_use(gram *g, const char *name, size_t *use, size_t *line);

#endif
