from attn_tutor.cli import main

main()
