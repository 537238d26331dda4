"""Tables, figures and the HTML report."""
