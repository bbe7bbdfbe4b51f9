"""A class's results for the classroom: rosters (roster), LMS gradebooks for Moodle and
Canvas (lms_gradebook), hand-back sheets' files (handback), the class report (report),
grade's outputs held together (outputs), and the grade command's flow, top to bottom (grade).

May import: every package below cli.
"""
