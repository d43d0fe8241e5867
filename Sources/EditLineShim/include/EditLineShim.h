#ifndef EDIT_LINE_SHIM_H
#define EDIT_LINE_SHIM_H

#include <histedit.h>

/// Non-variadic wrappers over libedit's el_set / el_get / history, which Swift cannot call; the
/// strings they take are copied. One editor per process: the prompt and the watched descriptor are
/// the process's.
typedef unsigned char (*fluxsh_command_fn)(EditLine *, int);

/// Opens an editor on the process's standard streams, with emacs bindings and no signal
/// handling of libedit's own. While a line is edited the terminal sends no signal: ^C abandons
/// the line (as an interrupt: NULL with *count -1 from fluxsh_el_gets) and ^Z stops the process
/// group. While a command runs, the caller's SIGINT handler (sa_flags = 0) sees Ctrl-C.
EditLine *fluxsh_el_open(const char *program);
void fluxsh_el_close(EditLine *editor);
/// Shows a copy of `text` before each line (the shim's, freed when the editor closes).
void fluxsh_el_set_prompt_text(EditLine *editor, const char *text);
/// The text of the line being edited before the cursor: the shim's copy, valid until the next call.
const char *fluxsh_el_text_before_cursor(EditLine *editor);
/// Binds `key` (e.g. "^I") to a named function implemented by `function`.
void fluxsh_el_bind_function(EditLine *editor, const char *name, const char *help, fluxsh_command_fn function,
                             const char *key);
void fluxsh_el_set_history(EditLine *editor, History *history);
/// Reads a line, in libedit's buffer (valid until the next read). Returns NULL with *count 0 at
/// end of input, NULL with *count -1 on interrupt.
const char *fluxsh_el_gets(EditLine *editor, int *count);
void fluxsh_el_reset(EditLine *editor);
void fluxsh_el_resize(EditLine *editor);

History *fluxsh_history_open(int size);
void fluxsh_history_close(History *history);
void fluxsh_history_enter(History *history, const char *line);
int fluxsh_history_load(History *history, const char *path);
int fluxsh_history_save(History *history, const char *path);

/// Installs a SIGINT handler that only interrupts the read (no SA_RESTART).
void fluxsh_install_interrupt_handler(void);
/// Whether SIGINT arrived since the last call (and clears it).
int fluxsh_take_interrupt(void);

/// Called while a line is edited when the watched descriptor has something to read; returns 0
/// to go on editing (the line is drawn again, below what it printed), 1 to end the input, 2 to
/// go on editing when it printed nothing (the line stays as it is drawn).
typedef int (*fluxsh_watch_fn)(EditLine *);
/// While a line is edited, also waits on `descriptor` (-1: none) and calls `watch` when it is
/// ready: what arrives there can print above the line being typed without breaking it.
void fluxsh_el_watch(EditLine *editor, int descriptor, fluxsh_watch_fn watch);

/// Writes text to standard output and flushes it (the completion list).
void fluxsh_print(const char *text);

#endif
