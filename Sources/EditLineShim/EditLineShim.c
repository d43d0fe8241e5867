#include "EditLineShim.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <wchar.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted = 0;

static void on_interrupt(int signal_number) {
    (void)signal_number;
    interrupted = 1;
}

void fluxsh_install_interrupt_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0; /* no SA_RESTART: the read returns EINTR and el_gets gives up */
    sigaction(SIGINT, &action, NULL);
}

int fluxsh_take_interrupt(void) {
    int was = interrupted;
    interrupted = 0;
    return was;
}

/* The terminal's settings when the editor opened: what a stopped job leaves to its shell. */
static struct termios outside_editing;
static int has_outside_editing = 0;

/* ^C while editing: abandon the line. No SIGINT is sent, so a parent in the same process group
   (`make run`) is not interrupted with us; a running command still gets the terminal's SIGINT. */
static unsigned char on_interrupt_key(EditLine *editor, int key) {
    (void)editor;
    (void)key;
    interrupted = 1;
    return CC_EOF;
}

/* ^Z while editing: stop the process group as the terminal would, with the terminal as it was
   outside the editor, and edit again once continued. */
static unsigned char on_suspend_key(EditLine *editor, int key) {
    (void)editor;
    (void)key;
    struct termios editing;
    int restores = has_outside_editing && tcgetattr(STDIN_FILENO, &editing) == 0;
    if (restores) tcsetattr(STDIN_FILENO, TCSADRAIN, &outside_editing);
    kill(0, SIGTSTP);
    if (restores) tcsetattr(STDIN_FILENO, TCSADRAIN, &editing);
    return CC_REDISPLAY;
}

/* The prompt, and the text before the cursor last asked for: copies the shim owns, freed when the
   editor closes. One editor per process reads the terminal (see the watched descriptor below), so
   these are the process's. */
static char *prompt_text = NULL;
static char *before_cursor = NULL;

static char *show_prompt(EditLine *editor) {
    (void)editor;
    return prompt_text != NULL ? prompt_text : "";
}

EditLine *fluxsh_el_open(const char *program) {
    /* Without a UTF-8 LC_CTYPE, libedit silently drops non-ASCII input. */
    if (setlocale(LC_CTYPE, "") == NULL || MB_CUR_MAX == 1) setlocale(LC_CTYPE, "C.UTF-8");
    EditLine *editor = el_init(program, stdin, stdout, stderr);
    if (editor == NULL) return NULL;
    el_set(editor, EL_EDITOR, "emacs");
    el_set(editor, EL_SIGNAL, 0);
    el_set(editor, EL_PROMPT, show_prompt);
    /* The terminal sends no signal while a line is edited: ^C and ^Z are keys (see above). */
    has_outside_editing = tcgetattr(STDIN_FILENO, &outside_editing) == 0;
    el_set(editor, EL_SETTY, "-d", "-isig", NULL);
    el_source(editor, NULL); /* ~/.editrc, as users of libedit expect */
    /* After ~/.editrc: a `bind -v` there resets the key map, and without these ^C and ^Z would
       do nothing at all. */
    el_set(editor, EL_ADDFN, "fluxsh-interrupt", "abandon the line", on_interrupt_key);
    el_set(editor, EL_BIND, "^C", "fluxsh-interrupt", NULL);
    el_set(editor, EL_ADDFN, "fluxsh-suspend", "stop, as a job", on_suspend_key);
    el_set(editor, EL_BIND, "^Z", "fluxsh-suspend", NULL);
    return editor;
}

void fluxsh_el_close(EditLine *editor) {
    el_end(editor);
    free(prompt_text);
    prompt_text = NULL;
    free(before_cursor);
    before_cursor = NULL;
}

void fluxsh_el_set_prompt_text(EditLine *editor, const char *text) {
    (void)editor;
    char *copy = strdup(text);
    if (copy == NULL) return;
    free(prompt_text);
    prompt_text = copy;
}

const char *fluxsh_el_text_before_cursor(EditLine *editor) {
    const LineInfo *line = el_line(editor);
    size_t length = line != NULL && line->cursor > line->buffer ? (size_t)(line->cursor - line->buffer) : 0;
    char *copy = realloc(before_cursor, length + 1);
    if (copy == NULL) return "";
    if (length > 0) memcpy(copy, line->buffer, length);
    copy[length] = 0;
    before_cursor = copy;
    return copy;
}

void fluxsh_el_bind_function(EditLine *editor, const char *name, const char *help, fluxsh_command_fn function,
                             const char *key) {
    el_set(editor, EL_ADDFN, name, help, function);
    el_set(editor, EL_BIND, key, name, NULL);
}

void fluxsh_el_set_history(EditLine *editor, History *log) { el_set(editor, EL_HIST, history, log); }

const char *fluxsh_el_gets(EditLine *editor, int *count) {
    errno = 0;
    const char *line = el_gets(editor, count);
    if (line == NULL && (errno == EINTR || interrupted)) *count = -1;
    return line;
}

void fluxsh_el_reset(EditLine *editor) { el_reset(editor); }

void fluxsh_el_resize(EditLine *editor) { el_resize(editor); }

History *fluxsh_history_open(int size) {
    History *log = history_init();
    if (log == NULL) return NULL;
    HistEvent event;
    history(log, &event, H_SETSIZE, size);
    history(log, &event, H_SETUNIQUE, 1);
    return log;
}

void fluxsh_history_close(History *log) { history_end(log); }

void fluxsh_history_enter(History *log, const char *line) {
    HistEvent event;
    history(log, &event, H_ENTER, line);
}

int fluxsh_history_load(History *log, const char *path) {
    HistEvent event;
    return history(log, &event, H_LOAD, path);
}

int fluxsh_history_save(History *log, const char *path) {
    HistEvent event;
    return history(log, &event, H_SAVE, path);
}

/* The descriptor watched while a line is edited, and what to call when it is ready. One editor
   per process reads the terminal, so these are the process's. */
static int watched_descriptor = -1;
static fluxsh_watch_fn watcher = NULL;

/* Reads one character of the terminal, as libedit's own reader does (UTF-8 in the locale set at
   open), while also waiting on the watched descriptor. */
static int read_character(EditLine *editor, wchar_t *character) {
    char bytes[MB_LEN_MAX];
    size_t count = 0;
    mbstate_t state;
    memset(&state, 0, sizeof state);
    for (;;) {
        struct pollfd descriptors[2] = {{STDIN_FILENO, POLLIN, 0}, {watched_descriptor, POLLIN, 0}};
        int watching = count == 0 && watched_descriptor >= 0 && watcher != NULL;
        if (poll(descriptors, watching ? 2 : 1, -1) < 0) {
            if (errno == EINTR && !interrupted) continue;
            return -1;
        }
        if (watching && (descriptors[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            int outcome = watcher(editor);
            if (outcome == 1) return 0;
            if (outcome == 0) el_set(editor, EL_REFRESH);
        }
        if (!(descriptors[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        ssize_t got = read(STDIN_FILENO, bytes + count, 1);
        if (got < 0 && errno == EINTR && !interrupted) continue;
        if (got <= 0) return (int)got;
        count += 1;
        size_t used = mbrtowc(character, bytes, count, &state);
        if (used == (size_t)-2 && count < sizeof bytes) {
            memset(&state, 0, sizeof state);
            continue;
        }
        if (used == (size_t)-1 || used == (size_t)-2) *character = (unsigned char)bytes[0];
        return 1;
    }
}

void fluxsh_el_watch(EditLine *editor, int descriptor, fluxsh_watch_fn watch) {
    watched_descriptor = descriptor;
    watcher = watch;
    el_wset(editor, EL_GETCFN, descriptor >= 0 ? read_character : EL_BUILTIN_GETCFN);
}

void fluxsh_print(const char *text) {
    fputs(text, stdout);
    fflush(stdout);
}
