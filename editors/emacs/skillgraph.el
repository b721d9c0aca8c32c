;;; skillgraph.el --- skillgraph for Emacs: eglot or lsp-mode  -*- lexical-binding: t; -*-

;; Put this in your init file (or `load' it). skillgraph answers only for SKILL.md files and the
;; YAML of SwarmKit workspaces; on every other Markdown or YAML file it stays silent. It expects
;; `skillgraph' on PATH: `pip install skillgraph' (see docs/install.md).

;;;; eglot (built in since Emacs 29). Eglot runs one server per major mode, so this replaces
;;;; another Markdown or YAML server in the projects where you start it (M-x eglot).

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '((markdown-mode gfm-mode yaml-mode yaml-ts-mode) . ("skillgraph" "lsp"))))

;;;; lsp-mode: an add-on server, beside the other Markdown and YAML servers.

(with-eval-after-load 'lsp-mode
  (add-to-list 'lsp-language-id-configuration '(markdown-mode . "markdown"))
  (add-to-list 'lsp-language-id-configuration '(gfm-mode . "markdown"))
  (add-to-list 'lsp-language-id-configuration '(yaml-mode . "yaml"))
  (add-to-list 'lsp-language-id-configuration '(yaml-ts-mode . "yaml"))
  (lsp-register-client
   (make-lsp-client
    :new-connection (lsp-stdio-connection '("skillgraph" "lsp"))
    :major-modes '(markdown-mode gfm-mode yaml-mode yaml-ts-mode)
    :add-on? t
    :server-id 'skillgraph)))

(provide 'skillgraph)
;;; skillgraph.el ends here
