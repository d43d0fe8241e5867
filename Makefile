# FluxShell: the few commands people run. `make run` and `make test` work on a fresh machine.
SWIFT ?= swift
ARGS ?=
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test deps test-deps screenshots bench-web build release bench budget tsan fuzz format lint docs clean

## run: build fluxsh and start it; pass arguments with ARGS="--store counter". The debug build, the
## one `make test` builds with the same flags, so either after the other builds nothing again
## (`make release` for the optimized binary)
run: deps
	$(SWIFT) build --product fluxsh
	.build/debug/fluxsh $(ARGS)

## test: the lint, then every stage of the tests (Scripts/test-all.sh): a build with no compiler warning in the
## project's own code (and none more for `make run`), every unit and end-to-end test (the attach tests against a real
## app process; `fluxsh listen` with an app that dials it, on loopback and across two network namespaces), replay Scenarios/ with `fluxsh test` and the fuzzers' corpora (Fuzz/Corpus) through each fuzzer, then
## explore every built-in store with 8 seeds (Scripts/explore-builtins.sh); drive the packages in Examples/, users' own
## packages over FluxShell (NotesApp, SyncUps, and apps written with ReSwift, TCA and VueFlux); the devtools page in
## headless Chromium, on fluxsh's stores, an attached app and the examples' reducer and store object; run the
## sessions the documentation shows (Tests/Docs/docs_test.py); check docs/architecture.md's modules and products against
## Package.swift and the sources (Tests/Docs/architecture_test.py); build the README's own package against a clone of this
## repository (Scripts/test-readme-package.sh); build the API docs; count the instructions and allocations a line costs on
## the hot paths against their budget (Scripts/budget.py, release builds under callgrind). One line per stage, each stage's output in
## .build/test-logs/, and a summary at the end
test: deps test-deps lint
	SWIFT="$(SWIFT)" Scripts/test-all.sh

## deps: install what the build needs (libedit-dev; tmux and python3 for the terminal and attach tests; iproute2 for
## the tests across hosts, in network namespaces) when missing
deps:
	@missing=""; \
	pkg-config --exists libedit 2>/dev/null || missing="$$missing libedit-dev pkg-config"; \
	command -v tmux >/dev/null 2>&1 || missing="$$missing tmux"; \
	command -v python3 >/dev/null 2>&1 || missing="$$missing python3"; \
	command -v ip >/dev/null 2>&1 || missing="$$missing iproute2"; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

## test-deps: what the browser, agent and budget tests need, installed when missing: Chromium, its
## driver, PyPI's selenium, PyPI's mcp (the Model Context Protocol's client), and valgrind
test-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v chromedriver >/dev/null 2>&1 || missing="$$missing chromium-driver"; \
	command -v pip3 >/dev/null 2>&1 || python3 -m pip --version >/dev/null 2>&1 || missing="$$missing python3-pip"; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi; \
	python3 -c 'import selenium' 2>/dev/null || { echo "installing: selenium (PyPI)"; \
		python3 -m pip install -q selenium 2>/dev/null || python3 -m pip install -q --break-system-packages selenium; }; \
	python3 -c 'import mcp' 2>/dev/null || { echo "installing: mcp (PyPI)"; \
		python3 -m pip install -q mcp 2>/dev/null || python3 -m pip install -q --break-system-packages mcp; }; \
	command -v valgrind >/dev/null 2>&1 || { echo "installing: valgrind"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind; }

## screenshots: the devtools page on a session of the SyncUps example, as docs/images/devtools.png
## (the README and the reference show it)
screenshots: deps test-deps
	swift build --package-path Examples/SyncUps --scratch-path .build/examples --product syncupsh
	python3 Tests/Web/screenshot.py .build/examples/debug/syncupsh docs/images/devtools.png

## bench-web: the devtools page in headless Chromium (figures in docs/performance.md)
bench-web: deps test-deps
	$(SWIFT) build -c release --product fluxsh
	$(SWIFT) build -c release --product attach-demo
	Scripts/bench-web.py .build/release/fluxsh .build/release/attach-demo

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## budget: the instructions and allocations a line costs on the hot paths, under callgrind in a clean release build (.build-budget),
## against Tests/Budget/budget.json (a stage of `make test`; Scripts/budget.py --update after a change worth its cost)
budget: deps test-deps
	python3 Scripts/budget.py --scratch .build-budget --clean

## bench: release-mode benchmarks of FluxCore, of the shell, of each form a store can take, of the attach agent and of pinned
## swift-dependencies (figures in docs/performance.md)
bench: release
	.build/release/fluxbench
	.build/release/fluxbench agent
	.build/release/fluxbench forms
	.build/release/fluxbench forms-agent
	.build/release/fluxbench pinned
	Scripts/bench-shell.sh
	Scripts/bench-anchor.sh

## tsan: the unit tests under the thread sanitizer
tsan: deps
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan

## fuzz: the command and value fuzzers, FUZZ_SECONDS each (default 600)
fuzz: deps
	Scripts/fuzz.sh

FORMATTED := Sources Tests Package.swift Fuzz/Sources Examples/NotesApp/Sources \
	Examples/NotesApp/Package.swift Examples/SyncUps/Sources Examples/SyncUps/Package.swift \
	Examples/ReduxTodos/Sources Examples/ReduxTodos/Package.swift Examples/WeatherSearch/Sources \
	Examples/WeatherSearch/Package.swift Examples/ClassCounter/Sources Examples/ClassCounter/Package.swift

## docs: the API documentation (DocC) of the modules with public API, one archive each in
## .build/plugins/Swift-DocC/outputs/intermediates/, combined into
## .build/plugins/Swift-DocC/outputs/FluxShell.doccarchive; any warning (a broken link) fails it
DOC_MODULES := FluxCore FluxShellSystem FluxShellValues FluxShellSession FluxShellRunner FluxShellLive FluxShell
docs: deps
	$(SWIFT) package --disable-sandbox generate-documentation $(DOC_MODULES:%=--target %) \
		--enable-experimental-combined-documentation --warnings-as-errors
	@# Every page of a module's documentation is one its overview lists: no engine type shows as API.
	@for module in $(DOC_MODULES); do \
		lower=$$(echo $$module | tr A-Z a-z); overview=Sources/$$module/$$module.docc/$$module.md; \
		for page in .build/plugins/Swift-DocC/outputs/intermediates/$$module.doccarchive/data/documentation/$$lower/*.json; do \
			name=$$(basename $$page .json); \
			grep -qiE "^- (\`\`$$name\`\`|<doc:$$name>)" $$overview || { echo "error: $$module's documentation shows '$$name', which $$overview does not list"; exit 1; }; \
		done; \
	done

## format: rewrite the Swift files as .swift-format lays them out
format:
	$(SWIFT) format --in-place --recursive $(FORMATTED)

## lint: fail on any line .swift-format would lay out otherwise, and on a comment that carries a measured figure
## (Scripts/lint-comments.py: the figures live in docs/performance.md and the budget), and on a function over 80 lines
## (Scripts/lint-functions.py) (part of `make test`)
lint:
	$(SWIFT) format lint --strict --recursive $(FORMATTED)
	python3 Scripts/lint-comments.py
	python3 Scripts/lint-functions.py

clean:
	rm -rf .build .build-*
